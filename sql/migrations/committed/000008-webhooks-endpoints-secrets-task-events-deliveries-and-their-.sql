--! Previous: sha1:b0d8f4af2ba9984de186b8db7bd277db337472f6
--! Hash: sha1:62d19c4c53f67053bbf4501aeb206e209fbc9eaf
--! Message: Webhooks: endpoints, secrets, task events, deliveries and their attempts

-- Webhooks: endpoints, their secrets, task events and their deliveries (docs/webhooks.md).
--
-- Events are made by a trigger on app_public.tasks, in the transaction that changes a task's
-- status or progress, whoever changes it (a worker, cancel_task, recover_dead_workers, a DBA):
--   task.started    the first progress tick (progress rises while running); once per task
--   task.progress   progress enters a higher 10 % bucket while running; once per bucket
--   task.succeeded, task.failed, task.cancelled   the terminal status
--   quote.ready     after task.succeeded of automation.automated_cam_planning
-- Once-ness is a unique index on (task_id, type, bucket) of app_private.webhook_events. Each
-- event becomes one delivery per enabled endpoint of the task's user that subscribes to it,
-- and one graphile-worker job per delivery (deliver_webhook, named queue per endpoint, run_at
-- the insert's clock), in event order.

create function app_private.iso_time(p_at timestamptz) returns text
  language sql immutable
  set search_path = pg_catalog
as $$
  select to_char(p_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
$$;

create table app_public.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  seq bigint generated always as identity unique,
  user_id uuid not null default app_public.current_user_id() references app_public.users on delete cascade,
  url text not null check (url ~ '^https?://' and length(url) <= 2048),
  event_types text[] not null default '{}' check (event_types <@ array[
    'task.started', 'task.progress', 'task.succeeded', 'task.failed', 'task.cancelled', 'quote.ready']::text[]),
  enabled boolean not null default true,
  -- why the service disabled it (every delivery failed for 24 h); null when a user did, or it is enabled
  disabled_reason text,
  disabled_at timestamptz,
  -- the first failed attempt since the last delivered one; null while deliveries succeed
  failing_since timestamptz,
  revoked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhook_endpoints_user_idx on app_public.webhook_endpoints (user_id, seq) where revoked_at is null;
alter table app_public.webhook_endpoints enable row level security;
create policy webhook_endpoints_select on app_public.webhook_endpoints for select
  using (user_id = app_public.current_user_id() and revoked_at is null);
create policy webhook_endpoints_update on app_public.webhook_endpoints for update
  using (user_id = app_public.current_user_id() and revoked_at is null)
  with check (user_id = app_public.current_user_id() and revoked_at is null);
grant select, update (url, event_types, enabled) on app_public.webhook_endpoints to :APP_USER;

-- enabling again clears what the service recorded when it disabled the endpoint
create function app_private.tg_webhook_endpoints__update() returns trigger
  language plpgsql
  set search_path = pg_catalog
as $$
begin
  new.updated_at := now();
  if new.enabled and not old.enabled then
    new.disabled_reason := null;
    new.disabled_at := null;
    new.failing_since := null;
  end if;
  return new;
end;
$$;
create trigger _100_update before update on app_public.webhook_endpoints
  for each row execute function app_private.tg_webhook_endpoints__update();

-- Secrets in plaintext, because signing needs them, in app_private, which the API role can
-- never read: it gets a secret only from create_webhook_endpoint and rotate_webhook_secret.
-- Signing uses every secret not expired; a rotation gives the old one 24 hours.
create table app_private.webhook_secrets (
  id bigint generated always as identity primary key,
  endpoint_id uuid not null references app_public.webhook_endpoints on delete cascade,
  secret text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz
);
create index webhook_secrets_endpoint_idx on app_private.webhook_secrets (endpoint_id);

create function app_private.new_webhook_secret() returns text
  language sql volatile
  set search_path = pg_catalog
as $$
  -- two v4 UUIDs: 244 random bits from the server's strong random source
  select 'whsec_' || replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');
$$;

create table app_private.webhook_events (
  id uuid primary key default gen_random_uuid(),
  seq bigint generated always as identity unique,
  user_id uuid not null references app_public.users on delete cascade,
  task_id uuid not null references app_public.tasks on delete cascade,
  type text not null,
  -- the 10 % bucket of a task.progress; -1 for the other types
  bucket smallint not null default -1,
  data jsonb not null,
  created_at timestamptz not null default clock_timestamp(),
  unique (task_id, type, bucket)
);

create table app_public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  seq bigint generated always as identity unique,
  user_id uuid not null references app_public.users on delete cascade,
  endpoint_id uuid not null references app_public.webhook_endpoints on delete cascade,
  event_id uuid not null references app_private.webhook_events on delete cascade,
  event_seq bigint not null,
  event_type text not null,
  task_id uuid not null,
  -- the exact bytes sent on every attempt (its id is this delivery's id)
  body text not null,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed', 'cancelled')),
  attempts integer not null default 0,
  max_attempts integer not null default 6,
  next_attempt_at timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  unique (endpoint_id, event_id)
);
create index webhook_deliveries_endpoint_seq_idx on app_public.webhook_deliveries (endpoint_id, seq desc);
create index webhook_deliveries_pending_idx on app_public.webhook_deliveries (endpoint_id, task_id, event_seq) where status = 'pending';
alter table app_public.webhook_deliveries enable row level security;
create policy webhook_deliveries_select on app_public.webhook_deliveries for select
  using (user_id = app_public.current_user_id());
grant select on app_public.webhook_deliveries to :APP_USER;

create table app_public.webhook_delivery_attempts (
  id bigint generated always as identity primary key,
  delivery_id uuid not null references app_public.webhook_deliveries on delete cascade,
  user_id uuid not null references app_public.users on delete cascade,
  attempt integer not null,
  attempted_at timestamptz not null,
  status_code integer,
  duration_ms integer not null,
  error text,
  outcome text not null check (outcome in ('delivered', 'retrying', 'failed')),
  next_attempt_at timestamptz,
  -- this attempt's failure disabled the endpoint (every delivery failed for 24 hours)
  endpoint_disabled boolean not null default false,
  unique (delivery_id, attempt)
);
alter table app_public.webhook_delivery_attempts enable row level security;
create policy webhook_delivery_attempts_select on app_public.webhook_delivery_attempts for select
  using (user_id = app_public.current_user_id());
grant select on app_public.webhook_delivery_attempts to :APP_USER;

-- One delivery job: max_attempts 3 only covers the worker's own faults (a database error);
-- HTTP outcomes are recorded and retried on our schedule (record_webhook_attempt).
create function app_private.enqueue_webhook_delivery(p_delivery_id uuid, p_endpoint_id uuid, p_run_at timestamptz)
  returns void
  language sql volatile
  set search_path = pg_catalog
as $$
  select graphile_worker.add_job('deliver_webhook', json_build_object('delivery_id', p_delivery_id),
    queue_name := 'webhook:' || p_endpoint_id, run_at := p_run_at, max_attempts := 3,
    job_key := 'webhook_delivery:' || p_delivery_id);
$$;

create function app_private.emit_webhook_event(p_task app_public.tasks, p_type text, p_bucket integer)
  returns void
  language plpgsql volatile
  set search_path = pg_catalog
as $$
declare
  v_event app_private.webhook_events;
  v_endpoint uuid;
  v_delivery uuid;
begin
  insert into app_private.webhook_events (user_id, task_id, type, bucket, data)
    values (p_task.user_id, p_task.id, p_type, p_bucket, jsonb_build_object(
      'task_id', p_task.id, 'project_id', p_task.project_id, 'task_name', p_task.task_name,
      'status', p_task.status, 'progress', p_task.progress, 'result', p_task.result))
    on conflict (task_id, type, bucket) do nothing
    returning * into v_event;
  if v_event.id is null then
    return;
  end if;
  for v_endpoint in
    select e.id from app_public.webhook_endpoints e
     where e.user_id = p_task.user_id and e.enabled and e.revoked_at is null
       and (cardinality(e.event_types) = 0 or p_type = any(e.event_types))
     order by e.seq
  loop
    v_delivery := gen_random_uuid();
    insert into app_public.webhook_deliveries
        (id, user_id, endpoint_id, event_id, event_seq, event_type, task_id, body, next_attempt_at)
      values (v_delivery, p_task.user_id, v_endpoint, v_event.id, v_event.seq, p_type, p_task.id,
        jsonb_build_object('id', v_delivery, 'type', p_type, 'created_at', app_private.iso_time(v_event.created_at),
          'data', v_event.data)::text,
        clock_timestamp());
    perform app_private.enqueue_webhook_delivery(v_delivery, v_endpoint, clock_timestamp());
  end loop;
end;
$$;

create function app_private.tg_tasks__webhook_events() returns trigger
  language plpgsql security definer
  set search_path = pg_catalog
as $$
declare
  v_old_bucket integer := floor(old.progress * 10 + 1e-9);
  v_new_bucket integer := floor(new.progress * 10 + 1e-9);
begin
  if new.status = 'running' and new.progress > old.progress then
    perform app_private.emit_webhook_event(new, 'task.started', -1);
    if v_new_bucket > v_old_bucket and v_new_bucket >= 1 then
      perform app_private.emit_webhook_event(new, 'task.progress', v_new_bucket);
    end if;
  end if;
  if new.status is distinct from old.status then
    if new.status = 'success' then
      perform app_private.emit_webhook_event(new, 'task.succeeded', -1);
      if new.task_name = 'automation.automated_cam_planning' then
        perform app_private.emit_webhook_event(new, 'quote.ready', -1);
      end if;
    elsif new.status = 'failed' then
      perform app_private.emit_webhook_event(new, 'task.failed', -1);
    elsif new.status = 'cancelled' then
      perform app_private.emit_webhook_event(new, 'task.cancelled', -1);
    end if;
  end if;
  return null;
end;
$$;
create trigger _600_webhook_events after update of status, progress on app_public.tasks
  for each row when (old.status is distinct from new.status or old.progress is distinct from new.progress)
  execute function app_private.tg_tasks__webhook_events();

-- The API's writes that touch secrets or the queue: SECURITY DEFINER, the caller's rows only.

create function app_public.create_webhook_endpoint(p_url text, p_event_types text[])
  returns table (id uuid, url text, event_types text[], enabled boolean, created_at timestamptz, secret text)
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  v_user uuid := app_public.current_user_id();
  v_endpoint app_public.webhook_endpoints;
  v_secret text := app_private.new_webhook_secret();
begin
  if v_user is null then
    raise exception 'no request identity' using errcode = 'SWAUT';
  end if;
  insert into app_public.webhook_endpoints (user_id, url, event_types)
    values (v_user, p_url, coalesce(p_event_types, '{}'))
    returning * into v_endpoint;
  insert into app_private.webhook_secrets (endpoint_id, secret) values (v_endpoint.id, v_secret);
  return query select v_endpoint.id, v_endpoint.url, v_endpoint.event_types, v_endpoint.enabled, v_endpoint.created_at, v_secret;
end;
$$;

create function app_public.rotate_webhook_secret(p_endpoint_id uuid)
  returns table (secret text, previous_expires_at timestamptz)
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  v_secret text := app_private.new_webhook_secret();
  v_expires timestamptz := now() + interval '24 hours';
begin
  perform 1 from app_public.webhook_endpoints e
    where e.id = p_endpoint_id and e.user_id = app_public.current_user_id() and e.revoked_at is null
    for update;
  if not found then
    return;
  end if;
  update app_private.webhook_secrets s set expires_at = least(coalesce(s.expires_at, v_expires), v_expires)
    where s.endpoint_id = p_endpoint_id;
  delete from app_private.webhook_secrets s where s.endpoint_id = p_endpoint_id and s.expires_at <= now();
  insert into app_private.webhook_secrets (endpoint_id, secret) values (p_endpoint_id, v_secret);
  return query select v_secret, v_expires;
end;
$$;

-- Revoke: the endpoint disappears from the API, its secrets are deleted, pending deliveries
-- are cancelled and their jobs removed.
create function app_public.revoke_webhook_endpoint(p_endpoint_id uuid) returns boolean
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  v_delivery uuid;
begin
  update app_public.webhook_endpoints e set revoked_at = now(), enabled = false
    where e.id = p_endpoint_id and e.user_id = app_public.current_user_id() and e.revoked_at is null;
  if not found then
    return false;
  end if;
  delete from app_private.webhook_secrets s where s.endpoint_id = p_endpoint_id;
  for v_delivery in
    update app_public.webhook_deliveries d
       set status = 'cancelled', last_error = 'the endpoint was revoked', finished_at = now(), next_attempt_at = null
     where d.endpoint_id = p_endpoint_id and d.status = 'pending'
     returning d.id
  loop
    perform graphile_worker.remove_job('webhook_delivery:' || v_delivery);
  end loop;
  return true;
end;
$$;

-- Redeliver a delivered or failed delivery: same id and body, six more attempts.
-- Returns queued, not_found, pending or endpoint_disabled.
create function app_public.redeliver_webhook(p_endpoint_id uuid, p_delivery_id uuid) returns text
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  v_delivery app_public.webhook_deliveries;
  v_enabled boolean;
begin
  select e.enabled into v_enabled from app_public.webhook_endpoints e
    where e.id = p_endpoint_id and e.user_id = app_public.current_user_id() and e.revoked_at is null;
  if not found then
    return 'not_found';
  end if;
  select * into v_delivery from app_public.webhook_deliveries d
    where d.id = p_delivery_id and d.endpoint_id = p_endpoint_id for update;
  if not found then
    return 'not_found';
  end if;
  if v_delivery.status = 'pending' then
    return 'pending';
  end if;
  if not v_enabled then
    return 'endpoint_disabled';
  end if;
  update app_public.webhook_deliveries d
     set status = 'pending', max_attempts = d.attempts + 6, next_attempt_at = now(), finished_at = null
   where d.id = p_delivery_id;
  perform app_private.enqueue_webhook_delivery(p_delivery_id, p_endpoint_id, now());
  return 'queued';
end;
$$;

-- The worker's record of one attempt, as the owner, in one transaction: the attempt row, the
-- delivery's state, the next job (p_next_at, computed by the worker: backoff with jitter),
-- and the endpoint's failure streak; an endpoint whose deliveries have all failed for 24 hours
-- is disabled, its pending deliveries fail, and the attempt says so. p_now is the worker's
-- clock (tests inject it). Returns the attempt's outcome; null when the delivery was not
-- pending with that many attempts (cancelled, or recorded by someone else).
create function app_private.record_webhook_attempt(
  p_delivery_id uuid, p_attempt integer, p_attempted_at timestamptz, p_status_code integer,
  p_duration_ms integer, p_error text, p_retryable boolean, p_next_at timestamptz, p_now timestamptz
) returns text
  language plpgsql volatile
  set search_path = pg_catalog
as $$
declare
  v_delivery app_public.webhook_deliveries;
  v_endpoint app_public.webhook_endpoints;
  v_delivered boolean := coalesce(p_status_code between 200 and 299, false);
  v_outcome text;
  v_disable boolean := false;
  v_other uuid;
begin
  select * into v_delivery from app_public.webhook_deliveries d
    where d.id = p_delivery_id and d.status = 'pending' and d.attempts = p_attempt - 1 for update;
  if not found then
    return null;
  end if;
  select * into v_endpoint from app_public.webhook_endpoints e where e.id = v_delivery.endpoint_id for update;
  if v_delivered then
    v_outcome := 'delivered';
    update app_public.webhook_endpoints e set failing_since = null where e.id = v_endpoint.id and e.failing_since is not null;
  else
    v_outcome := case when p_retryable and p_attempt < v_delivery.max_attempts then 'retrying' else 'failed' end;
    v_disable := v_endpoint.enabled and coalesce(v_endpoint.failing_since, p_attempted_at) <= p_now - interval '24 hours';
    if v_disable then
      v_outcome := 'failed';
    end if;
  end if;
  insert into app_public.webhook_delivery_attempts
      (delivery_id, user_id, attempt, attempted_at, status_code, duration_ms, error, outcome, next_attempt_at, endpoint_disabled)
    values (p_delivery_id, v_delivery.user_id, p_attempt, p_attempted_at, p_status_code, p_duration_ms,
      case when v_disable then concat_ws('; ', p_error, 'the endpoint is disabled: every delivery failed for 24 hours') else p_error end,
      v_outcome, case when v_outcome = 'retrying' then p_next_at end, v_disable);
  update app_public.webhook_deliveries d
     set attempts = p_attempt,
         status = case v_outcome when 'retrying' then 'pending' else v_outcome end,
         next_attempt_at = case when v_outcome = 'retrying' then p_next_at end,
         last_error = case when v_delivered then null else p_error end,
         finished_at = case when v_outcome = 'retrying' then null else p_now end
   where d.id = p_delivery_id;
  if v_outcome = 'retrying' then
    perform app_private.enqueue_webhook_delivery(p_delivery_id, v_endpoint.id, p_next_at);
  end if;
  if not v_delivered and not v_disable then
    update app_public.webhook_endpoints e set failing_since = p_attempted_at where e.id = v_endpoint.id and e.failing_since is null;
  end if;
  if v_disable then
    update app_public.webhook_endpoints e
       set enabled = false, disabled_at = p_now,
           disabled_reason = 'every delivery failed for 24 hours (since ' || app_private.iso_time(coalesce(e.failing_since, p_attempted_at)) || ')'
     where e.id = v_endpoint.id;
    for v_other in
      update app_public.webhook_deliveries d
         set status = 'failed', last_error = 'the endpoint was disabled: every delivery failed for 24 hours',
             finished_at = p_now, next_attempt_at = null
       where d.endpoint_id = v_endpoint.id and d.status = 'pending' and d.id <> p_delivery_id
       returning d.id
    loop
      perform graphile_worker.remove_job('webhook_delivery:' || v_other);
    end loop;
  end if;
  return v_outcome;
end;
$$;

grant execute on function app_public.create_webhook_endpoint(text, text[]) to :APP_USER;
grant execute on function app_public.rotate_webhook_secret(uuid) to :APP_USER;
grant execute on function app_public.revoke_webhook_endpoint(uuid) to :APP_USER;
grant execute on function app_public.redeliver_webhook(uuid, uuid) to :APP_USER;
