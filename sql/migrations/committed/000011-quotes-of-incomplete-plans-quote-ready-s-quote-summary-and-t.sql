--! Previous: sha1:9bccd281067563fbc3e18a0dbff0490adc219f51
--! Hash: sha1:834e616086ece7de2cb972a1ae57a7251c4b87be
--! Message: Quotes of incomplete plans: quote.ready's quote summary and the setup-cost overrides a re-plan dropped

-- Quotes of incomplete plans and per-setup cost overrides across a re-plan (docs/quote.md,
-- docs/webhooks.md).

-- The per-setup cost overrides the last planning could not carry to its plan (no setup of the
-- new plan has the direction of theirs): [{job_id, setup_id, name, direction, entry}], job_id
-- the job of the planning that dropped them. Replaced by every planning; the breakdown warns
-- about those of the current job.
alter table app_public.quote_jobs
  add column setup_costs_dropped jsonb not null default '[]' check (jsonb_typeof(setup_costs_dropped) = 'array');

-- What a quoting portal needs on quote.ready: whether the quote prices a plan that finishes the
-- part, why not, and the overrides the planning dropped; sendable when neither.
create function app_private.quote_ready_summary(p_task app_public.tasks) returns jsonb
  language sql stable
  set search_path = pg_catalog
as $$
  with plan as (
    select p_task.result ->> 'job_id' as job_id, p_task.result -> 'completeness' as completeness
  ), dropped as (
    select coalesce(jsonb_agg(jsonb_build_object('setup_id', d.value ->> 'setup_id', 'name', d.value ->> 'name', 'direction', d.value -> 'direction')
                              order by d.n), '[]'::jsonb) as setups
      from app_public.quote_jobs q, plan, jsonb_array_elements(q.setup_costs_dropped) with ordinality d (value, n)
     where q.project_id = p_task.project_id and d.value ->> 'job_id' = plan.job_id
  )
  select jsonb_build_object(
      'job_id', plan.job_id,
      'sendable', coalesce(plan.completeness ->> 'status' = 'complete', false) and jsonb_array_length(dropped.setups) = 0,
      'completeness', case when plan.completeness is null then null
                           else jsonb_build_object('status', plan.completeness -> 'status', 'reasons', plan.completeness -> 'reasons') end,
      'setup_costs_dropped', dropped.setups)
    from plan, dropped;
$$;

create or replace function app_private.emit_webhook_event(p_task app_public.tasks, p_type text, p_bucket integer)
  returns void
  language plpgsql volatile
  set search_path = pg_catalog
as $$
declare
  v_event app_private.webhook_events;
  v_endpoint uuid;
  v_delivery uuid;
  v_data jsonb := jsonb_build_object(
      'task_id', p_task.id, 'project_id', p_task.project_id, 'task_name', p_task.task_name,
      'status', p_task.status, 'progress', p_task.progress, 'result', p_task.result);
begin
  if p_type = 'quote.ready' then
    v_data := v_data || jsonb_build_object('quote', app_private.quote_ready_summary(p_task));
  end if;
  insert into app_private.webhook_events (user_id, task_id, type, bucket, data)
    values (p_task.user_id, p_task.id, p_type, p_bucket, v_data)
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
