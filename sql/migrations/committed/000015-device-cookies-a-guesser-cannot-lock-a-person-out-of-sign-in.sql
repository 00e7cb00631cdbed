--! Previous: sha1:3c140e1445f543968706755de0c37ff914b5055b
--! Hash: sha1:825587be0acfa49533789d4769686a396a474f5e
--! Message: device cookies: a guesser cannot lock a person out of sign-in

-- Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser
-- that has signed in as a user holds a random device token for that user, and its sign-ins
-- are not subject to the per-account limit of failed sign-ins, which a guesser who knows only
-- the email could otherwise keep full to lock the owner out. Each device token has a small
-- failure limit of its own instead. Only the token's SHA-256 is stored, as for sessions.

create table app_private.sign_in_devices (
  token_hash bytea primary key check (length(token_hash) = 32),
  user_id uuid not null references app_public.users on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  -- attempts made with the token since it was issued that did not sign in (see claim below)
  failures integer not null default 0
);
create index sign_in_devices_user_id_idx on app_private.sign_in_devices (user_id);
create index sign_in_devices_expires_at_idx on app_private.sign_in_devices (expires_at);

-- Whether a sign-in as p_email may take the trusted path with this device token: the token is
-- live, belongs to that email's user and has made fewer than p_limit failed attempts. The
-- attempt is counted before the password is checked (a success replaces the token anyway),
-- so concurrent attempts cannot overrun the limit. A token over its limit is deleted and the
-- attempt is untrusted; a token of another user, or an unknown one, is left alone.
create function app_public.claim_sign_in_device(p_token_hash bytea, p_email text, p_limit integer)
  returns boolean
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  v_failures integer;
begin
  update app_private.sign_in_devices d set failures = d.failures + 1
    from app_public.users u
    where d.token_hash = p_token_hash and u.id = d.user_id and lower(u.email) = lower(p_email)
      and d.expires_at > now()
    returning d.failures into v_failures;
  if not found then
    return false;
  end if;
  if v_failures > p_limit then
    delete from app_private.sign_in_devices where token_hash = p_token_hash;
    return false;
  end if;
  return true;
end;
$$;
grant execute on function app_public.claim_sign_in_device(bytea, text, integer) to :APP_USER;

-- After a successful sign-in: the browser's new device token, replacing the one it sent (of
-- whichever user; the browser keeps only the new cookie).
create function app_public.issue_sign_in_device(
  p_user_id uuid, p_token_hash bytea, p_replaced_hash bytea, p_valid_seconds integer)
  returns void
  language sql volatile security definer
  set search_path = pg_catalog
as $$
  with replaced as (
    delete from app_private.sign_in_devices where token_hash = p_replaced_hash
  )
  insert into app_private.sign_in_devices (token_hash, user_id, expires_at)
    values (p_token_hash, p_user_id, now() + make_interval(secs => p_valid_seconds))
$$;
grant execute on function app_public.issue_sign_in_device(uuid, bytea, bytea, integer) to :APP_USER;

-- The cron task that prunes rate-limit slots prunes expired device tokens too.
create or replace function app_private.prune_rate_limit_slots(p_longest_window interval) returns integer
  language sql volatile
  set search_path = pg_catalog
as $$
  with gone as (
    delete from app_private.rate_limit_slots where slot_start < now() - p_longest_window returning 1
  ), gone_failures as (
    delete from app_private.auth_failure_slots where slot_start < now() - p_longest_window returning 1
  ), gone_sign_in_failures as (
    delete from app_private.sign_in_failure_slots where slot_start < now() - p_longest_window returning 1
  ), gone_sessions as (
    delete from app_private.sessions s where not app_private.session_is_live(s) returning 1
  ), gone_links as (
    delete from app_private.login_links where expires_at < now() - interval '1 day' returning 1
  ), gone_devices as (
    delete from app_private.sign_in_devices where expires_at <= now() returning 1
  )
  select ((select count(*) from gone) + (select count(*) from gone_failures)
    + (select count(*) from gone_sign_in_failures) + (select count(*) from gone_sessions)
    + (select count(*) from gone_links) + (select count(*) from gone_devices))::integer
$$;
