--! Previous: sha1:62d19c4c53f67053bbf4501aeb206e209fbc9eaf
--! Hash: sha1:597d741ce7d52dd2408d43b42139d338f4a147fe
--! Message: Operator read model: the ops schema read by /ops/graphql and DBAs, RLS deciding the rows

-- The ops schema: what operators and DBAs read about the running system, and the only schema
-- the GraphQL endpoint at /ops/graphql exposes (api/ops-graphql). Read-only: the API role gets
-- SELECT on the views and nothing else.
--
-- Who sees which rows. The endpoint runs each query as the API role in a transaction with
-- app.user_id and app.scopes of the caller's key and app.surface = 'ops'.
--   - tasks and webhook deliveries are security_invoker views over app_public tables, so
--     their RLS decides: a key sees its user's rows; a key with the scope ops:read, on this
--     surface only, sees every user's rows (the *_operator policies below). The public API
--     never sets app.surface, so ops:read widens nothing there.
--   - queue depth and workers describe the fleet, not a user: they read graphile_worker's
--     tables and app_private.worker_leases as the owner (plain views) and show their rows to
--     operators only; a key without ops:read gets none.
-- A DBA connected as the owner sees everything (the owner bypasses RLS, and the fleet views
-- check for the API role only).

create schema ops;
comment on schema ops is 'Operator read model: tasks, queue depth, workers, webhook deliveries (docs/operations.md)';
grant usage on schema ops to :APP_USER;

create function app_public.current_surface() returns text
  language sql stable parallel safe
as $$
  select nullif(pg_catalog.current_setting('app.surface', true), '')
$$;
grant execute on function app_public.current_surface() to :APP_USER;

-- An operator: a key with ops:read, asking through the ops endpoint.
create function app_public.is_operator() returns boolean
  language sql stable parallel safe
as $$
  select app_public.current_surface() = 'ops' and 'ops:read' = any(app_public.current_scopes())
$$;
grant execute on function app_public.is_operator() to :APP_USER;

-- Rows of the fleet views: everyone but the API role, and the API role as an operator.
create function app_public.may_see_fleet() returns boolean
  language sql stable parallel safe
as $$
  select session_user <> ':APP_USER' or app_public.is_operator()
$$;
grant execute on function app_public.may_see_fleet() to :APP_USER;

create policy tasks_select_operator on app_public.tasks for select to :APP_USER
  using (app_public.is_operator());
create policy users_select_operator on app_public.users for select to :APP_USER
  using (app_public.is_operator());
create policy webhook_deliveries_select_operator on app_public.webhook_deliveries for select to :APP_USER
  using (app_public.is_operator());
create policy webhook_delivery_attempts_select_operator on app_public.webhook_delivery_attempts for select to :APP_USER
  using (app_public.is_operator());

-- Task records as the API keeps them (states: 000001, beside app_public.tasks), with the email
-- of their user. No payload or result: they can be large, and the public API serves them.
create view ops.tasks with (security_invoker = true) as
  select t.id, t.seq, t.user_id, u.email as user_email, t.project_id, t.task_name,
         t.worker_task, t.queue_name, t.status, t.progress, t.attempts, t.max_attempts,
         t.error ->> 'code' as error_code, t.error ->> 'message' as error_message,
         t.locked_by, t.cancel_requested_at, t.created_at, t.started_at, t.heartbeat_at,
         t.finished_at, t.updated_at
    from app_public.tasks t
    join app_public.users u on u.id = t.user_id;
comment on view ops.tasks is E'@primaryKey id\n@foreignKey (locked_by) references ops.workers (pool_id)\nDurable task records (automation, re-meshing): one row per task, newest last by seq.';
comment on column ops.tasks.locked_by is 'the worker pool (ops.workers.pool_id) running it, while it runs';

-- Queue depth per task type, from graphile-worker's jobs. A job in a named queue that another
-- job holds counts as ready (it runs as soon as the queue frees).
create view ops.queue_depth as
  select j.task_identifier as task_name,
         count(*) filter (where j.locked_at is null and j.run_at <= now() and j.attempts < j.max_attempts)::integer as ready,
         count(*) filter (where j.locked_at is null and j.run_at > now() and j.attempts < j.max_attempts)::integer as scheduled,
         count(*) filter (where j.locked_at is not null)::integer as running,
         count(*) filter (where j.locked_at is null and j.attempts >= j.max_attempts)::integer as failed,
         min(j.run_at) filter (where j.locked_at is null and j.run_at <= now() and j.attempts < j.max_attempts) as oldest_ready_at
    from graphile_worker.jobs j
   where app_public.may_see_fleet()
   group by j.task_identifier;
comment on view ops.queue_depth is E'@primaryKey task_name\nJobs in graphile-worker''s queue per task: ready to run, scheduled for later (retries, webhook backoff), running, failed for good. Operators only.';

-- Worker processes (one graphile-worker pool each) from their leases (workers/leases.ts).
create view ops.workers as
  select l.pool_id, l.hostname, l.pid, l.task_names, l.started_at, l.heartbeat_at,
         extract(epoch from now() - l.heartbeat_at)::double precision as seconds_since_heartbeat,
         (select count(*)::integer from graphile_worker.jobs j where j.locked_by = l.pool_id) as jobs_running
    from app_private.worker_leases l
   where app_public.may_see_fleet();
comment on view ops.workers is E'@primaryKey pool_id\nLive worker processes: a lease older than WORKER_LEASE_STALE_SECONDS (30 s) is a dead worker, removed by the next recovery round. Operators only.';

-- Webhook deliveries with their last attempt. No body (the public API's delivery log has it).
create view ops.webhook_deliveries with (security_invoker = true) as
  select d.id, d.seq, d.user_id, d.endpoint_id, d.event_type, d.task_id, d.status,
         d.attempts, d.max_attempts, d.next_attempt_at, d.last_error,
         a.status_code as last_status_code, a.duration_ms as last_duration_ms, a.attempted_at as last_attempted_at,
         d.created_at, d.finished_at
    from app_public.webhook_deliveries d
    left join lateral (
      select x.status_code, x.duration_ms, x.attempted_at from app_public.webhook_delivery_attempts x
       where x.delivery_id = d.id order by x.attempt desc limit 1
    ) a on true;
comment on view ops.webhook_deliveries is E'@primaryKey id\n@foreignKey (task_id) references ops.tasks (id)\nOne row per event sent to an endpoint: pending (waiting for its next attempt), delivered, failed for good or cancelled.';

grant select on ops.tasks, ops.queue_depth, ops.workers, ops.webhook_deliveries to :APP_USER;
