--! Previous: sha1:085aee1155dfd076fa20731727cff229801b2626
--! Hash: sha1:110eec09aeabd4303ca913f98502af0d52f8a017
--! Message: idempotency claims on a renewed lease; every foreign key indexed

-- Idempotency claims held by a lease the request renews while it runs, and an index for every
-- foreign key.
--
-- A claim used to lock its key for 300 s: after a kill -9 mid-request, retries got 409 for up
-- to five minutes although nothing ran. The API now claims for a short lease
-- (IDEMPOTENCY_CLAIM_LEASE_SECONDS) and renews it while the request runs, so a dead process's
-- claim is free within one lease; a duplicate's 409 carries Retry-After, the lease's remainder.

-- Seconds until a claim in flight may be taken over (at least 1); null when none is in flight.
create or replace function app_public.idempotency_retry_after(
  p_key_prefix text, p_key_hash bytea, p_idempotency_key text)
  returns integer
  language sql stable security definer
  set search_path = pg_catalog
as $$
  select greatest(1, ceil(extract(epoch from r.locked_until - now())))::integer
    from app_private.idempotency_records r
   where r.user_id = app_private.key_user_id(p_key_prefix, p_key_hash)
     and r.idempotency_key = p_idempotency_key and r.state = 'in_flight'
$$;
grant execute on function app_public.idempotency_retry_after(text, bytea, text) to :APP_USER;

-- Extends the lock of a claim its holder still runs; false when the claim was lost (taken over
-- after its lock passed, released, or completed).
create or replace function app_public.idempotency_renew(
  p_key_prefix text, p_key_hash bytea, p_idempotency_key text, p_claim_token uuid, p_lock_seconds integer)
  returns boolean
  language sql volatile security definer
  set search_path = pg_catalog
as $$
  with renewed as (
    update app_private.idempotency_records r
       set locked_until = now() + make_interval(secs => p_lock_seconds)
     where r.user_id = app_private.key_user_id(p_key_prefix, p_key_hash)
       and r.idempotency_key = p_idempotency_key and r.claim_token = p_claim_token
       and r.state = 'in_flight'
    returning 1)
  select exists (select 1 from renewed)
$$;
grant execute on function app_public.idempotency_renew(text, bytea, text, uuid, integer) to :APP_USER;

-- Without an index leading with a foreign key's columns, deleting a referenced row scans the
-- referencing table once per row: pruning 200,000 webhook events cascaded to their deliveries
-- for 11 minutes. test/db/foreign-key-indexes.test.ts keeps every foreign key indexed.
create index if not exists webhook_deliveries_event_id_idx on app_public.webhook_deliveries (event_id);
create index if not exists webhook_deliveries_user_id_idx on app_public.webhook_deliveries (user_id);
create index if not exists webhook_delivery_attempts_user_id_idx on app_public.webhook_delivery_attempts (user_id);
create index if not exists webhook_events_user_id_idx on app_private.webhook_events (user_id);
create index if not exists jobs_user_id_idx on app_public.jobs (user_id);
create index if not exists machine_quote_configs_product_id_idx on app_public.machine_quote_configs (product_id);
create index if not exists projects_library_id_idx on app_public.projects (library_id);
create index if not exists projects_material_id_idx on app_public.projects (material_id);
create index if not exists projects_product_id_idx on app_public.projects (product_id);
create index if not exists quote_jobs_user_id_idx on app_public.quote_jobs (user_id);
create index if not exists tasks_cancel_requested_by_key_id_idx on app_public.tasks (cancel_requested_by_key_id);
create index if not exists user_machines_product_id_idx on app_public.user_machines (product_id);
create index if not exists user_materials_material_id_idx on app_public.user_materials (material_id);
create index if not exists workpieces_user_id_idx on app_public.workpieces (user_id);
