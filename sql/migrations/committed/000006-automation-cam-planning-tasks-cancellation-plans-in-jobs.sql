--! Previous: sha1:866ac5f5fb50f190668055a9ad4e45f1fe2e419c
--! Hash: sha1:9c8bc97fc4c8da735e5f292c80defb93737a8b96
--! Message: automation: cam planning tasks, cancellation, plans in jobs

-- Automated CAM planning: the automation slot (one queued or running automation task per
-- project), FIFO per user, cooperative cancellation recorded on the task, and the plan saved
-- with a CAM job (jobs.source 'plan').

-------------------------------------------------------------------------------
-- Tasks: cancellation and the automation slot

-- Who asked for the cancel (cancel_requested_at, the when, is in the backbone): the API key,
-- null when an operator cancelled by hand or the key was deleted since.
alter table app_public.tasks
  add column cancel_requested_by_key_id uuid references app_private.api_keys on delete set null;

-- One automation task per project at a time, queued or running: the request that inserts the
-- second one finds this index (insert ... on conflict do nothing) and answers 409
-- automation_slot_busy. An index rather than a lock: it holds however many API processes and
-- whatever path inserts the task.
create unique index tasks_one_active_automation_per_project on app_public.tasks (project_id)
  where status in ('queued', 'running') and task_name like 'automation.%';

-- A task row inserted is a job queued, in the same transaction. run_at is the insert's own
-- clock, not the transaction's start: graphile-worker runs a named queue's jobs in run_at
-- order, and automation requests of one user are inserted one after the other under a lock
-- (api/routes/automation.ts), so the order they run in is the order they were accepted in,
-- which is the order queue_position counts.
create or replace function app_private.tg_tasks__enqueue() returns trigger
  language plpgsql security definer
  set search_path = pg_catalog
as $$
begin
  perform graphile_worker.add_job(new.worker_task, json_build_object('task_id', new.id),
    queue_name := new.queue_name, max_attempts := new.max_attempts, job_key := new.id::text,
    run_at := clock_timestamp());
  return null;
end;
$$;

-- POST /tasks/{task_id}/cancel. The caller's task only (no row otherwise: 404). outcome:
--   cancelled           it was queued: cancelled now, its queue job removed (one a worker has
--                       locked meanwhile cannot retry, and its attempt finds the task cancelled)
--   requested           it is running: cancel_requested_at is set; the worker stops at its next
--                       check and ends it cancelled, keeping nothing
--   already_cancelled   nothing changes
--   finished            success or failed: it cannot be cancelled any more
--   not_cancellable     not an automation task (a re-mesh, say), which must run to its end
-- The key's prefix and hash identify the key that asked (cancel_requested_by_key_id).
create function app_public.cancel_task(p_task_id uuid, p_key_prefix text, p_key_hash bytea)
  returns table (outcome text, task_status text)
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  t app_public.tasks;
  v_key_id uuid;
begin
  select * into t from app_public.tasks
    where id = p_task_id and user_id = app_public.current_user_id()
    for update;
  if not found then
    return;
  end if;
  if t.task_name not like 'automation.%' then
    return query select 'not_cancellable'::text, t.status;
  elsif t.status = 'cancelled' then
    return query select 'already_cancelled'::text, t.status;
  elsif t.status in ('success', 'failed') then
    return query select 'finished'::text, t.status;
  else
    select k.id into v_key_id from app_private.api_keys k
      where k.key_prefix = p_key_prefix and k.key_hash = p_key_hash and k.user_id = t.user_id;
    if t.status = 'queued' then
      update app_public.tasks
        set status = 'cancelled', cancel_requested_at = now(), cancel_requested_by_key_id = v_key_id,
            error = null, locked_by = null, finished_at = now(), updated_at = now()
        where id = t.id;
      perform graphile_worker.remove_job(t.id::text);
      return query select 'cancelled'::text, 'cancelled'::text;
    else
      update app_public.tasks
        set cancel_requested_at = coalesce(cancel_requested_at, now()),
            cancel_requested_by_key_id = case when cancel_requested_at is null then v_key_id else cancel_requested_by_key_id end,
            updated_at = now()
        where id = t.id;
      return query select 'requested'::text, t.status;
    end if;
  end if;
end;
$$;
grant execute on function app_public.cancel_task(uuid, text, bytea) to :APP_USER;

-- Dead workers (backbone): a task whose cancel was requested is cancelled rather than run again
-- or failed as worker_lost.
create or replace function app_private.recover_dead_workers(p_stale interval)
  returns table (pool_id text, tasks_requeued integer)
  language plpgsql volatile
  set search_path = pg_catalog
as $$
declare
  v_dead text[];
begin
  -- one sweeper at a time across the fleet; the others skip this round
  if not pg_try_advisory_xact_lock(hashtextextended('app_private.recover_dead_workers', 0)) then
    return;
  end if;
  delete from app_private.worker_leases l where l.heartbeat_at < now() - p_stale;
  select array_agg(distinct j.locked_by) into v_dead
    from graphile_worker.jobs j
    where j.locked_by is not null and j.locked_at < now() - p_stale
      and not exists (select 1 from app_private.worker_leases l where l.pool_id = j.locked_by);
  if v_dead is null then
    return;
  end if;
  perform graphile_worker.force_unlock_workers(v_dead);
  -- the user asked for a cancel: that is what the task ends in
  update app_public.tasks t
    set status = 'cancelled', locked_by = null, error = null, finished_at = now(), updated_at = now()
    where t.status = 'running' and t.locked_by = any(v_dead) and t.cancel_requested_at is not null;
  -- a task whose job has no attempt left will not run again: it fails now, not at the sweep
  update app_public.tasks t
    set status = 'failed', locked_by = null, finished_at = now(), updated_at = now(),
        error = jsonb_build_object('code', 'worker_lost', 'message',
          'the worker running the last attempt stopped (killed, or out of memory); start the task again')
    from graphile_worker.jobs j
    where j.key = t.id::text and j.attempts >= j.max_attempts
      and t.status = 'running' and t.locked_by = any(v_dead);
  return query
    with requeued as (
      update app_public.tasks t set status = 'queued', locked_by = null, updated_at = now()
        where t.status = 'running' and t.locked_by = any(v_dead)
        returning t.locked_by
    )
    select d.pool_id, (select count(*)::integer from requeued r where r.locked_by = d.pool_id)
      from unnest(v_dead) as d(pool_id);
end;
$$;

-- For DBAs: the cancel request beside the rest (new columns go last in a replaced view).
create or replace view app_private.task_queue_state as
  select t.id as task_id, t.task_name, t.status, t.progress, t.attempts as task_attempts,
         t.max_attempts, u.email as user_email, t.project_id, t.queue_name,
         t.created_at, t.started_at, t.heartbeat_at, t.finished_at, t.error,
         j.id as job_id, j.run_at as job_run_at, j.attempts as job_attempts,
         j.locked_at as job_locked_at, j.locked_by as job_locked_by, j.last_error as job_last_error,
         l.hostname as worker_hostname, l.pid as worker_pid, l.heartbeat_at as worker_heartbeat_at,
         t.cancel_requested_at, k.key_prefix as cancel_requested_by_key_prefix
    from app_public.tasks t
    join app_public.users u on u.id = t.user_id
    left join graphile_worker.jobs j on j.key = t.id::text
    left join app_private.worker_leases l on l.pool_id = coalesce(j.locked_by, t.locked_by)
    left join app_private.api_keys k on k.id = t.cancel_requested_by_key_id;

-------------------------------------------------------------------------------
-- Plans in CAM jobs
--
-- A planned job keeps its CAM tree (setups, operations with tool, parameters and moves,
-- verification, machining times: kernel/job/plan.ts) as one gzip-compressed JSON blob, and a
-- summary (the task result's figures, no moves) in jsonb. A blob rather than jsonb for the
-- tree: it is 100k+ moves per setup, read whole or not at all (a download, a postprocessor
-- run), never queried inside, and compresses about tenfold; as jsonb it would be parsed and
-- re-serialised on every read and TOASTed anyway. Blobs are content-addressed per user, so a
-- rollback to a planned job stores its plan only once. The summary is what a quote reads.

alter table app_public.jobs drop constraint jobs_source_check;
alter table app_public.jobs
  add constraint jobs_source_check check (source in ('workpiece', 'stock', 'import', 'plan')),
  add column plan_blob_id uuid references app_private.blobs,
  add column plan_summary jsonb check (jsonb_typeof(plan_summary) = 'object'),
  add constraint jobs_plan_with_summary check ((plan_blob_id is null) = (plan_summary is null)),
  -- a plan is made for a workpiece and its stock
  add constraint jobs_plan_needs_stock check (plan_blob_id is null or stock is not null),
  add constraint jobs_plan_source check (source <> 'plan' or plan_blob_id is not null);
create index jobs_plan_blob_idx on app_public.jobs (plan_blob_id) where plan_blob_id is not null;
grant insert (plan_blob_id, plan_summary) on app_public.jobs to :APP_USER;

-- The plan blob must be the job owner's, of the plan's content type (a foreign key does not
-- know whose blob it is).
create function app_private.tg_jobs__check_plan_blob() returns trigger
  language plpgsql security definer
  set search_path = pg_catalog
as $$
begin
  if new.plan_blob_id is not null and not exists (select 1 from app_private.blobs b
      where b.id = new.plan_blob_id and b.user_id = new.user_id
        and b.content_type = 'application/vnd.swarf.cam-plan+gzip') then
    raise exception 'blob % is not a CAM plan blob of this user', new.plan_blob_id
      using errcode = 'SWREF', hint = 'plan_blob_id';
  end if;
  return new;
end;
$$;
create trigger _150_check_plan_blob before insert on app_public.jobs
  for each row execute function app_private.tg_jobs__check_plan_blob();

-- A blob is in use when a workpiece or a job's plan holds it.
create function app_private.blob_in_use(p_blob_id uuid) returns boolean
  language sql stable
  set search_path = pg_catalog
as $$
  select exists (select 1 from app_public.workpieces w
      where p_blob_id in (w.original_blob_id, w.brep_blob_id, w.mesh_blob_id, w.thumbnail_blob_id))
    or exists (select 1 from app_public.jobs j where j.plan_blob_id = p_blob_id)
$$;

create or replace function app_public.delete_blob(p_blob_id uuid) returns boolean
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
begin
  if app_public.current_user_id() is null then
    return false;
  end if;
  perform app_private.lock_user_blobs(app_public.current_user_id(), true);
  delete from app_private.blobs b
    where b.id = p_blob_id and b.user_id = app_public.current_user_id()
      and not app_private.blob_in_use(b.id);
  return found;
end;
$$;

-- The purge also takes the plans of the project's jobs that no other job holds.
create or replace function app_private.purge_project(p_project_id uuid)
  returns table (projects_deleted integer, blobs_deleted integer)
  language plpgsql volatile
  set search_path = pg_catalog
as $$
declare
  v_user_id uuid;
  v_blob_ids uuid[];
  v_projects integer;
  v_blobs integer;
begin
  select p.user_id into v_user_id from app_public.projects p where p.id = p_project_id and p.deleted_at is not null;
  if not found then
    return query select 0, 0;
    return;
  end if;
  perform app_private.lock_user_blobs(v_user_id, true);
  select coalesce(array_agg(distinct u.blob_id), '{}') into v_blob_ids
    from (
      select u.blob_id from app_public.workpieces w
        cross join lateral unnest(array[w.original_blob_id, w.brep_blob_id, w.mesh_blob_id, w.thumbnail_blob_id]) as u(blob_id)
        where w.project_id = p_project_id
      union all
      select j.plan_blob_id from app_public.jobs j where j.project_id = p_project_id
    ) as u
    where u.blob_id is not null;
  delete from app_public.projects where id = p_project_id and deleted_at is not null;
  get diagnostics v_projects = row_count;
  if v_projects = 0 then
    return query select 0, 0;
    return;
  end if;
  delete from app_private.blobs b
    where b.id = any(v_blob_ids) and not app_private.blob_in_use(b.id);
  get diagnostics v_blobs = row_count;
  return query select v_projects, v_blobs;
end;
$$;
