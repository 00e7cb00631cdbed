--! Previous: sha1:110eec09aeabd4303ca913f98502af0d52f8a017
--! Hash: sha1:3c140e1445f543968706755de0c37ff914b5055b
--! Message: sign-in for people: passwords, sessions, login links and their throttle

-- Sign-in for people (issue 38): the web app's users sign in with a password or a one-time
-- login link and hold a session cookie. Only the SHA-256 of a session cookie or a link token
-- is stored, as with API keys. A session acts as its user with every scope of the public API
-- (not the operator's), through the same begin_request and RLS as a key: the session's
-- credential is the prefix 'session:' (no key can have it: key prefixes are [a-z2-7]{4,32})
-- with the SHA-256 of the cookie as the hash.

-------------------------------------------------------------------------------
-- Passwords: scrypt in the API process (auth/password.ts), stored as a self-describing
-- string `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>` so the parameters can change later.

create table app_private.user_passwords (
  user_id uuid primary key references app_public.users on delete cascade,
  password_hash text not null check (password_hash like 'scrypt$%' and length(password_hash) <= 400),
  updated_at timestamptz not null default now()
);

-- What a sign-in checks a password against; no row for an unknown email. A user without a
-- password is returned with a null hash (the API compares against a dummy hash either way).
create function app_public.sign_in_credentials(p_email text)
  returns table (user_id uuid, email text, password_hash text)
  language sql stable security definer
  set search_path = pg_catalog
as $$
  select u.id, u.email, p.password_hash from app_public.users u
    left join app_private.user_passwords p on p.user_id = u.id
    where lower(u.email) = lower(p_email)
$$;
grant execute on function app_public.sign_in_credentials(text) to :APP_USER;

-------------------------------------------------------------------------------
-- Sessions. id: SHA-256 of the cookie. A session is live while it has been seen within
-- idle_timeout and before expires_at (absolute); both are fixed when it starts, from
-- SESSION_IDLE_MINUTES and SESSION_MAX_DAYS. No process caches a session: ending one (sign
-- out, deleting the user) refuses its cookie at once everywhere.

create table app_private.sessions (
  id bytea primary key check (length(id) = 32),
  user_id uuid not null references app_public.users on delete cascade,
  csrf_token text not null check (length(csrf_token) between 20 and 100),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  idle_timeout interval not null,
  expires_at timestamptz not null
);
create index sessions_user_id_idx on app_private.sessions (user_id);
create index sessions_expires_at_idx on app_private.sessions (expires_at);

create function app_private.session_is_live(s app_private.sessions) returns boolean
  language sql stable
  set search_path = pg_catalog
as $$
  select s.expires_at > now() and s.last_seen_at + s.idle_timeout > now()
$$;

create function app_public.start_session(
  p_user_id uuid, p_session_id bytea, p_csrf_token text, p_idle_seconds integer, p_max_seconds integer)
  returns void
  language sql volatile security definer
  set search_path = pg_catalog
as $$
  insert into app_private.sessions (id, user_id, csrf_token, idle_timeout, expires_at)
    values (p_session_id, p_user_id, p_csrf_token, make_interval(secs => p_idle_seconds),
            now() + make_interval(secs => p_max_seconds))
$$;
grant execute on function app_public.start_session(uuid, bytea, text, integer, integer) to :APP_USER;

-- The live session of that id, its user and CSRF token; no row for an unknown, ended or
-- expired one (an expired row is deleted). last_seen_at is written at most once a minute.
create function app_public.authenticate_session(p_session_id bytea)
  returns table (user_id uuid, email text, csrf_token text)
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  s app_private.sessions;
begin
  select * into s from app_private.sessions where id = p_session_id;
  if not found then
    return;
  end if;
  if not app_private.session_is_live(s) then
    delete from app_private.sessions where id = s.id;
    return;
  end if;
  if s.last_seen_at < now() - interval '1 minute' then
    -- a lost write costs at most a minute of idle time: not worth an fsync
    perform set_config('synchronous_commit', 'off', true);
    update app_private.sessions set last_seen_at = now() where id = s.id;
  end if;
  return query select s.user_id, u.email, s.csrf_token from app_public.users u where u.id = s.user_id;
end;
$$;
grant execute on function app_public.authenticate_session(bytea) to :APP_USER;

create function app_public.end_session(p_session_id bytea) returns boolean
  language sql volatile security definer
  set search_path = pg_catalog
as $$
  with gone as (delete from app_private.sessions where id = p_session_id returning 1)
  select exists (select 1 from gone)
$$;
grant execute on function app_public.end_session(bytea) to :APP_USER;

-------------------------------------------------------------------------------
-- Login links (`cli user login-link`): one use, 15 minutes. Redeeming marks the link used
-- and starts the session in one statement; of two racing redemptions the second waits on the
-- first's row lock, sees used_at set and gets no row.

create table app_private.login_links (
  token_hash bytea primary key check (length(token_hash) = 32),
  user_id uuid not null references app_public.users on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index login_links_user_id_idx on app_private.login_links (user_id);
create index login_links_expires_at_idx on app_private.login_links (expires_at);

create function app_public.redeem_login_link(
  p_token_hash bytea, p_session_id bytea, p_csrf_token text, p_idle_seconds integer, p_max_seconds integer)
  returns table (user_id uuid, email text)
  language sql volatile security definer
  set search_path = pg_catalog
as $$
  with used as (
    update app_private.login_links l set used_at = now()
      where l.token_hash = p_token_hash and l.used_at is null and l.expires_at > now()
      returning l.user_id
  ), started as (
    insert into app_private.sessions (id, user_id, csrf_token, idle_timeout, expires_at)
      select p_session_id, used.user_id, p_csrf_token, make_interval(secs => p_idle_seconds),
             now() + make_interval(secs => p_max_seconds)
        from used
      returning sessions.user_id
  )
  select u.id, u.email from started join app_public.users u on u.id = started.user_id
$$;
grant execute on function app_public.redeem_login_link(bytea, bytea, text, integer, integer) to :APP_USER;

-------------------------------------------------------------------------------
-- Failed sign-ins per subject ('address:<ip>', 'account:<lower email>'), counted in 60 slots
-- per window like the failed key attempts (000010), shared by the fleet, UNLOGGED.

create unlogged table app_private.sign_in_failure_slots (
  subject text not null,
  slot_start timestamptz not null,
  failures integer not null,
  primary key (subject, slot_start)
);

-- Whole seconds until the subject is under p_limit failures again; null when it is under.
create function app_private.sign_in_retry_after(p_subject text, p_limit integer, p_window_seconds integer)
  returns integer
  language plpgsql stable
  set search_path = pg_catalog
as $$
declare
  v_epoch double precision := extract(epoch from clock_timestamp());
  v_oldest_counted timestamptz := to_timestamp(v_epoch) - make_interval(secs => p_window_seconds);
  v_failures integer;
  v_need integer;
  v_freed integer := 0;
  r record;
begin
  select coalesce(sum(s.failures), 0)::integer into v_failures from app_private.sign_in_failure_slots s
    where s.subject = p_subject and s.slot_start > v_oldest_counted;
  if v_failures < p_limit then
    return null;
  end if;
  v_need := v_failures - p_limit + 1;
  for r in select s.slot_start, s.failures from app_private.sign_in_failure_slots s
      where s.subject = p_subject and s.slot_start > v_oldest_counted order by s.slot_start loop
    v_freed := v_freed + r.failures;
    if v_freed >= v_need then
      return greatest(1, ceil(extract(epoch from r.slot_start) + p_window_seconds - v_epoch)::integer);
    end if;
  end loop;
  return 1;
end;
$$;

-- One row per subject that is at its limit: which one and for how long.
create function app_public.sign_in_blocked(p_subjects text[], p_limits integer[], p_window_seconds integer)
  returns table (subject text, retry_after_seconds integer)
  language sql stable security definer
  set search_path = pg_catalog
as $$
  select t.subject, app_private.sign_in_retry_after(t.subject, t.lim, p_window_seconds)
    from unnest(p_subjects, p_limits) as t(subject, lim)
    where app_private.sign_in_retry_after(t.subject, t.lim, p_window_seconds) is not null
$$;
grant execute on function app_public.sign_in_blocked(text[], integer[], integer) to :APP_USER;

create function app_public.record_sign_in_failure(p_subjects text[], p_window_seconds integer)
  returns void
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  v_slot_seconds integer := greatest(1, p_window_seconds / 60);
  v_current timestamptz := to_timestamp(floor(extract(epoch from clock_timestamp()) / v_slot_seconds) * v_slot_seconds);
begin
  perform set_config('synchronous_commit', 'off', true);
  insert into app_private.sign_in_failure_slots as s (subject, slot_start, failures)
    select t.subject, v_current, 1 from unnest(p_subjects) as t(subject)
    on conflict on constraint sign_in_failure_slots_pkey do update set failures = s.failures + 1;
end;
$$;
grant execute on function app_public.record_sign_in_failure(text[], integer) to :APP_USER;

-- The cron task that prunes rate-limit slots prunes failed sign-ins, ended sessions and
-- old login links too.
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
  )
  select ((select count(*) from gone) + (select count(*) from gone_failures)
    + (select count(*) from gone_sign_in_failures) + (select count(*) from gone_sessions)
    + (select count(*) from gone_links))::integer
$$;

-------------------------------------------------------------------------------
-- A session as a request's identity. The credential prefix 'session:' names a session;
-- begin_request and key_user_id (idempotency) take it as they take a key. A session holds
-- every scope a route can require (the public API's; the operator's surface takes keys only).

create or replace function app_private.key_user_id(p_key_prefix text, p_key_hash bytea) returns uuid
  language sql stable
  set search_path = pg_catalog
as $$
  select k.user_id from app_private.api_keys k
    where p_key_prefix <> 'session:' and k.key_prefix = p_key_prefix and k.key_hash = p_key_hash
      and k.revoked_at is null
  union all
  select s.user_id from app_private.sessions s
    where p_key_prefix = 'session:' and s.id = p_key_hash and app_private.session_is_live(s)
$$;

-- SWSES: the session is unknown, ended or expired (401 not_signed_in).
create or replace function app_public.begin_request(p_key_prefix text, p_key_hash bytea, p_required_scopes text[])
  returns void
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  v_user_id uuid;
  v_scopes text[];
  v_missing text[];
begin
  if p_key_prefix = 'session:' then
    select s.user_id into v_user_id from app_private.sessions s
      where s.id = p_key_hash and app_private.session_is_live(s);
    if not found then
      raise exception 'the session is unknown or has ended' using errcode = 'SWSES';
    end if;
    perform set_config('app.user_id', v_user_id::text, true);
    perform set_config('app.scopes', array_to_string(p_required_scopes, ' '), true);
    return;
  end if;
  select k.user_id, k.scopes into v_user_id, v_scopes from app_private.api_keys k
    where k.key_prefix = p_key_prefix and k.key_hash = p_key_hash and k.revoked_at is null;
  if not found then
    raise exception 'API key is unknown or revoked' using errcode = 'SWAUT';
  end if;
  perform set_config('app.user_id', v_user_id::text, true);
  perform set_config('app.scopes', array_to_string(v_scopes, ' '), true);
  v_missing := array(select unnest(p_required_scopes) except select unnest(v_scopes) order by 1);
  if cardinality(v_missing) > 0 then
    raise exception 'API key lacks a required scope' using errcode = 'SWSCP',
      detail = array_to_string(v_missing, ' ');
  end if;
end;
$$;

-------------------------------------------------------------------------------
-- The signed-in user's own API keys (the web app's Settings, API keys), as the request's
-- user (begin_request set it): the key table stays private to the owner role.

create function app_public.own_api_keys()
  returns table (id uuid, name text, key_prefix text, scopes text[], created_at timestamptz,
                 last_used_at timestamptz)
  language sql stable security definer
  set search_path = pg_catalog
as $$
  select k.id, k.name, k.key_prefix, k.scopes, k.created_at, k.last_used_at from app_private.api_keys k
    where k.user_id = app_public.current_user_id() and k.revoked_at is null
    order by k.created_at desc, k.key_prefix
$$;
grant execute on function app_public.own_api_keys() to :APP_USER;

create function app_public.create_own_api_key(p_name text, p_key_prefix text, p_key_hash bytea, p_scopes text[])
  returns table (id uuid, name text, key_prefix text, scopes text[], created_at timestamptz,
                 last_used_at timestamptz)
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
begin
  if app_public.current_user_id() is null then
    raise exception 'no request identity' using errcode = 'SWAUT';
  end if;
  return query
    insert into app_private.api_keys as k (user_id, name, key_prefix, key_hash, scopes)
      values (app_public.current_user_id(), p_name, p_key_prefix, p_key_hash, p_scopes)
      returning k.id, k.name, k.key_prefix, k.scopes, k.created_at, k.last_used_at;
end;
$$;
grant execute on function app_public.create_own_api_key(text, text, bytea, text[]) to :APP_USER;

-- The revoked key's hash (for the API process's key cache); no row when the user has no live
-- key of that id.
create function app_public.revoke_own_api_key(p_key_id uuid)
  returns table (key_hash bytea)
  language sql volatile security definer
  set search_path = pg_catalog
as $$
  update app_private.api_keys k set revoked_at = now()
    where k.id = p_key_id and k.user_id = app_public.current_user_id() and k.revoked_at is null
    returning k.key_hash
$$;
grant execute on function app_public.revoke_own_api_key(uuid) to :APP_USER;
