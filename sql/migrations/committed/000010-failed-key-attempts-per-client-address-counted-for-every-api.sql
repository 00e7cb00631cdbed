--! Previous: sha1:597d741ce7d52dd2408d43b42139d338f4a147fe
--! Hash: sha1:9bccd281067563fbc3e18a0dbff0490adc219f51
--! Message: Failed key attempts per client address, counted for every API process

-------------------------------------------------------------------------------
-- Failed key attempts per client address (api/middleware/auth/failed-attempts.ts): an
-- address that sends too many unknown or malformed keys is refused for a while, so keys
-- cannot be guessed at the speed of the API. Counted in Postgres so every API process of a
-- fleet shares the count; in 60 slots per window like the rate limits, UNLOGGED for the same
-- reason (after a crash the counts start empty).

create unlogged table app_private.auth_failure_slots (
  address inet not null,
  slot_start timestamptz not null,
  failures integer not null,
  primary key (address, slot_start)
);

-- Counts one failure of p_address and answers the failures in the window, and when the
-- address is at or over p_limit, the whole seconds until it is under again (else null).
create function app_public.record_auth_failure(p_address inet, p_limit integer, p_window_seconds integer)
  returns table (failures integer, retry_after_seconds integer)
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  v_epoch double precision := extract(epoch from clock_timestamp());
  v_slot_seconds integer := greatest(1, p_window_seconds / 60);
  v_current timestamptz := to_timestamp(floor(v_epoch / v_slot_seconds) * v_slot_seconds);
  v_oldest_counted timestamptz := v_current - make_interval(secs => p_window_seconds);
  v_need integer;
  v_freed integer := 0;
  r record;
begin
  perform set_config('synchronous_commit', 'off', true);
  insert into app_private.auth_failure_slots as s (address, slot_start, failures)
    values (p_address, v_current, 1)
    on conflict on constraint auth_failure_slots_pkey do update set failures = s.failures + 1;
  select coalesce(sum(s.failures), 0)::integer into failures from app_private.auth_failure_slots s
    where s.address = p_address and s.slot_start > v_oldest_counted;
  retry_after_seconds := null;
  if failures >= p_limit then
    -- failures of slot s leave the window at s + window; walk the oldest until enough leave
    v_need := failures - p_limit + 1;
    for r in select s.slot_start, s.failures from app_private.auth_failure_slots s
        where s.address = p_address and s.slot_start > v_oldest_counted order by s.slot_start loop
      v_freed := v_freed + r.failures;
      if v_freed >= v_need then
        retry_after_seconds := greatest(1, ceil(extract(epoch from r.slot_start) + p_window_seconds - v_epoch)::integer);
        exit;
      end if;
    end loop;
  end if;
  return next;
end;
$$;
grant execute on function app_public.record_auth_failure(inet, integer, integer) to :APP_USER;

-- The cron task that prunes rate-limit slots prunes these too.
create or replace function app_private.prune_rate_limit_slots(p_longest_window interval) returns integer
  language sql volatile
  set search_path = pg_catalog
as $$
  with gone as (
    delete from app_private.rate_limit_slots where slot_start < now() - p_longest_window returning 1
  ), gone_failures as (
    delete from app_private.auth_failure_slots where slot_start < now() - p_longest_window returning 1
  )
  select ((select count(*) from gone) + (select count(*) from gone_failures))::integer
$$;
