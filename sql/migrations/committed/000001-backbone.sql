--! Previous: -
--! Hash: sha1:507c01590681b44672c7ffd46ed9e0af0cac5e88
--! Message: backbone

-- The service backbone: users and API keys, the user's machines, materials, equipment
-- libraries and quote settings (the defaults a project takes), projects with their quote job,
-- durable task records, worker leases, rate-limit windows and idempotency records.
--
-- Roles. :APP_USER is the non-superuser role the API connects as (db/roles.ts creates it,
-- because roles belong to the cluster, not to this database). It gets USAGE on app_public
-- only; every app_public table has RLS on and every policy keys on
-- app_public.current_user_id(), which is unset (null) outside app_public.begin_request().
-- app_private is never granted to :APP_USER: it reaches key hashes, rate windows and
-- idempotency records only through the SECURITY DEFINER functions below.

create schema app_public;
create schema app_private;
revoke all on schema app_private from public;
grant usage on schema app_public to :APP_USER;
-- PUBLIC's EXECUTE on new functions is a global default, which a per-schema ALTER DEFAULT
-- PRIVILEGES cannot take away (it only adds to the global one); this global form does, for
-- the functions the migrating role creates in this database. Each app_public function the
-- API calls is granted to :APP_USER explicitly.
alter default privileges revoke execute on functions from public;

-------------------------------------------------------------------------------
-- Request identity

-- Every RLS policy calls current_user_id(). No SET clause here: a SQL function with one is
-- never inlined, and these are not SECURITY DEFINER; the body names pg_catalog itself.
create function app_public.current_user_id() returns uuid
  language sql stable parallel safe
as $$
  select nullif(pg_catalog.current_setting('app.user_id', true), '')::uuid
$$;

create function app_public.current_scopes() returns text[]
  language sql stable parallel safe
as $$
  select coalesce(pg_catalog.string_to_array(nullif(pg_catalog.current_setting('app.scopes', true), ''), ' '), '{}')
$$;

grant execute on function app_public.current_user_id() to :APP_USER;
grant execute on function app_public.current_scopes() to :APP_USER;

-------------------------------------------------------------------------------
-- Users and keys

create table app_public.users (
  id uuid primary key default gen_random_uuid(),
  email text not null check (email ~ '^[^@\s]+@[^@\s]+$' and length(email) <= 320),
  created_at timestamptz not null default now()
);
create unique index users_email_key on app_public.users (lower(email));
alter table app_public.users enable row level security;
create policy users_self on app_public.users for select using (id = app_public.current_user_id());
grant select on app_public.users to :APP_USER;

-- The plaintext is `<key_prefix>_live_<40 base32>`; we keep the prefix (unique, for display
-- and lookup) and the SHA-256 of the whole plaintext.
create table app_private.api_keys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references app_public.users on delete cascade,
  name text not null check (length(name) between 1 and 200),
  key_prefix text not null unique check (key_prefix ~ '^[a-z2-7]{4,32}$'),
  key_hash bytea not null check (length(key_hash) = 32),
  scopes text[] not null,
  -- per-key overrides of rate limits, {bucket: requests per window}; "higher limits on request"
  rate_limits jsonb not null default '{}' check (jsonb_typeof(rate_limits) = 'object'),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_user_id_idx on app_private.api_keys (user_id);

-- Looks a key up for the API's authentication cache. Returns no row for an unknown or
-- revoked key. Writes last_used_at at most once a minute per key.
create function app_public.authenticate_key(p_key_prefix text, p_key_hash bytea)
  returns table (key_id uuid, user_id uuid, scopes text[])
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  k app_private.api_keys;
begin
  select * into k from app_private.api_keys
    where api_keys.key_prefix = p_key_prefix and api_keys.key_hash = p_key_hash
      and api_keys.revoked_at is null;
  if not found then
    return;
  end if;
  if k.last_used_at is null or k.last_used_at < now() - interval '1 minute' then
    -- last_used_at is informational: it may be lost in a crash, never worth an fsync.
    perform set_config('synchronous_commit', 'off', true);
    update app_private.api_keys set last_used_at = now() where id = k.id;
  end if;
  return query select k.id, k.user_id, k.scopes;
end;
$$;
grant execute on function app_public.authenticate_key(text, bytea) to :APP_USER;

-- Opens a request: every API transaction calls this first. It checks the key again (so a
-- revoked key fails here even while the API's 60 s cache still holds it), sets the user and
-- scopes for RLS, transaction-local, and refuses a key that lacks a required scope.
-- Our own SQLSTATEs (api/middleware/errors maps them): SWAUT unknown or revoked key (401),
-- SWSCP missing scope (403; DETAIL lists them), SWIDL idempotency claim lost (409),
-- SWREF a reference the user may not use (400; HINT names the field).
create function app_public.begin_request(p_key_prefix text, p_key_hash bytea, p_required_scopes text[])
  returns void
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  v_user_id uuid;
  v_scopes text[];
  v_missing text[];
begin
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
grant execute on function app_public.begin_request(text, bytea, text[]) to :APP_USER;

-------------------------------------------------------------------------------
-- Rate limiting: a sliding window per key and bucket, counted in 60 slots per window
-- (1 s slots for a minute, 1 min slots for an hour), so the window slides with 1/60 of its
-- length as resolution and a key costs at most 60 small rows per bucket. The table is
-- UNLOGGED and hits commit asynchronously: after a crash the windows start empty, which
-- errs towards letting requests through, and no request waits on an fsync for a counter.

create unlogged table app_private.rate_limit_slots (
  key_id uuid not null,
  bucket text not null,
  slot_start timestamptz not null,
  hits integer not null,
  primary key (key_id, bucket, slot_start)
);

-- p_buckets, p_limits, p_windows: parallel arrays, e.g. {default,cam_planning}, {120,30},
-- {60,3600}. A key's rate_limits override p_limits per bucket. p_want: how many hits the
-- caller asks to count at once (an API process leases a batch for a busy high-limit key and
-- spends it within a second: api/middleware/rate-limit). It is granted as many as every
-- bucket has room for, at least one or none; a request refused consumes nothing.
-- Returns one row per bucket: its limit, the requests left after the granted ones, when the
-- window would be entirely clear (reset_at, epoch s), for a full bucket the whole seconds
-- until a request fits again (retry_after_seconds, else null), and the grant (same in each row).
--
-- Check first, count last, no lock. Requests of one key that arrive in the same instant as
-- its window fills can each see room and all be admitted: the overshoot is bounded by the
-- key's requests in flight at that instant; sequential requests are counted exactly. A
-- per-key advisory lock made it exact but queued every request of a key behind the one
-- before: measured on 2 cores, 40 connections, one key: 6,500 calls/s with the lock,
-- 16,000 without. The counting upsert is last, so its row lock is held only to the commit.
create function app_public.rate_limit_hit(
  p_key_id uuid, p_buckets text[], p_limits integer[], p_windows integer[], p_want integer)
  returns table (bucket text, rate_limit integer, remaining integer, reset_at bigint,
                 retry_after_seconds integer, granted integer)
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  v_overrides jsonb;
  v_epoch double precision := extract(epoch from clock_timestamp());
  v_granted integer := greatest(1, p_want);
  i integer;
  v_slot_seconds integer;
  v_oldest_counted timestamptz;
  v_used integer;
  v_need integer;
  v_freed integer;
  r record;
  b_limit integer[] := '{}';
  b_used integer[] := '{}';
  b_current timestamptz[] := '{}';
  b_retry integer[] := '{}';
begin
  perform set_config('synchronous_commit', 'off', true);
  select k.rate_limits into v_overrides from app_private.api_keys k where k.id = p_key_id;
  for i in 1 .. cardinality(p_buckets) loop
    v_slot_seconds := greatest(1, p_windows[i] / 60);
    b_limit[i] := coalesce((v_overrides ->> p_buckets[i])::integer, p_limits[i]);
    b_current[i] := to_timestamp(floor(v_epoch / v_slot_seconds) * v_slot_seconds);
    -- the window is the current slot and the slots of the window before it
    v_oldest_counted := b_current[i] - make_interval(secs => p_windows[i]);
    select coalesce(sum(s.hits), 0) into v_used from app_private.rate_limit_slots s
      where s.key_id = p_key_id and s.bucket = p_buckets[i] and s.slot_start > v_oldest_counted;
    b_used[i] := v_used;
    v_granted := least(v_granted, b_limit[i] - v_used);
    b_retry[i] := null;
    if v_used >= b_limit[i] then
      -- hits of slot s leave the window at s + window; walk the oldest slots until enough leave
      v_need := v_used - b_limit[i] + 1;
      v_freed := 0;
      for r in select s.slot_start, s.hits from app_private.rate_limit_slots s
          where s.key_id = p_key_id and s.bucket = p_buckets[i] and s.slot_start > v_oldest_counted
          order by s.slot_start loop
        v_freed := v_freed + r.hits;
        if v_freed >= v_need then
          b_retry[i] := greatest(1, ceil(extract(epoch from r.slot_start) + p_windows[i] - v_epoch)::integer);
          exit;
        end if;
      end loop;
      b_retry[i] := coalesce(b_retry[i], p_windows[i]);
    end if;
  end loop;
  v_granted := greatest(0, v_granted);

  if v_granted > 0 then
    for i in 1 .. cardinality(p_buckets) loop
      insert into app_private.rate_limit_slots as s (key_id, bucket, slot_start, hits)
        values (p_key_id, p_buckets[i], b_current[i], v_granted)
        on conflict on constraint rate_limit_slots_pkey do update set hits = s.hits + v_granted;
    end loop;
  end if;

  for i in 1 .. cardinality(p_buckets) loop
    bucket := p_buckets[i];
    rate_limit := b_limit[i];
    remaining := greatest(0, b_limit[i] - b_used[i] - v_granted);
    reset_at := ceil(extract(epoch from b_current[i]) + p_windows[i])::bigint;
    retry_after_seconds := b_retry[i];
    granted := v_granted;
    return next;
  end loop;
end;
$$;
grant execute on function app_public.rate_limit_hit(uuid, text[], integer[], integer[], integer) to :APP_USER;

create function app_private.prune_rate_limit_slots(p_longest_window interval) returns integer
  language sql volatile
  set search_path = pg_catalog
as $$
  with gone as (
    delete from app_private.rate_limit_slots where slot_start < now() - p_longest_window returning 1
  )
  select count(*)::integer from gone
$$;

-------------------------------------------------------------------------------
-- Idempotency records. One per (user, Idempotency-Key), 24 h. The claim is committed on its
-- own, before the handler runs, so a concurrent duplicate sees it ("in_flight", 409). The
-- completion is written in the handler's own transaction (exactly-once: either the work and
-- its recorded response commit together, or neither does). A claim whose holder died
-- expires after locked_until and may be taken over.

create table app_private.idempotency_records (
  user_id uuid not null references app_public.users on delete cascade,
  idempotency_key text not null,
  method text not null,
  path text not null,
  request_hash bytea not null,
  claim_token uuid not null,
  state text not null check (state in ('in_flight', 'completed')),
  locked_until timestamptz,
  response_status integer,
  response_headers jsonb,
  response_body bytea,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '24 hours',
  primary key (user_id, idempotency_key)
);
create index idempotency_records_expires_at_idx on app_private.idempotency_records (expires_at);

create function app_private.key_user_id(p_key_prefix text, p_key_hash bytea) returns uuid
  language sql stable
  set search_path = pg_catalog
as $$
  select k.user_id from app_private.api_keys k
    where k.key_prefix = p_key_prefix and k.key_hash = p_key_hash and k.revoked_at is null
$$;

-- outcome: 'claimed' (run the request; claim_token identifies this attempt), 'replay'
-- (response_* hold the stored response), 'in_flight' (a duplicate is running), 'mismatch'
-- (the key was used for a different request).
create function app_public.idempotency_claim(
  p_key_prefix text, p_key_hash bytea, p_idempotency_key text,
  p_method text, p_path text, p_request_hash bytea, p_lock_seconds integer)
  returns table (outcome text, claim_token uuid, response_status integer, response_headers jsonb, response_body bytea)
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  v_user_id uuid := app_private.key_user_id(p_key_prefix, p_key_hash);
  v_token uuid := gen_random_uuid();
  rec app_private.idempotency_records;
begin
  if v_user_id is null then
    raise exception 'API key is unknown or revoked' using errcode = 'SWAUT';
  end if;
  delete from app_private.idempotency_records r
    where r.user_id = v_user_id and r.idempotency_key = p_idempotency_key and r.expires_at <= now();
  insert into app_private.idempotency_records
      (user_id, idempotency_key, method, path, request_hash, claim_token, state, locked_until)
    values (v_user_id, p_idempotency_key, p_method, p_path, p_request_hash, v_token, 'in_flight',
      now() + make_interval(secs => p_lock_seconds))
    on conflict do nothing;
  if found then
    return query select 'claimed'::text, v_token, null::integer, null::jsonb, null::bytea;
    return;
  end if;
  select * into rec from app_private.idempotency_records r
    where r.user_id = v_user_id and r.idempotency_key = p_idempotency_key for update;
  if rec.method <> p_method or rec.path <> p_path or rec.request_hash <> p_request_hash then
    return query select 'mismatch'::text, null::uuid, null::integer, null::jsonb, null::bytea;
  elsif rec.state = 'completed' then
    return query select 'replay'::text, null::uuid, rec.response_status, rec.response_headers, rec.response_body;
  elsif rec.locked_until > now() then
    return query select 'in_flight'::text, null::uuid, null::integer, null::jsonb, null::bytea;
  else
    update app_private.idempotency_records r
      set claim_token = v_token, locked_until = now() + make_interval(secs => p_lock_seconds)
      where r.user_id = v_user_id and r.idempotency_key = p_idempotency_key;
    return query select 'claimed'::text, v_token, null::integer, null::jsonb, null::bytea;
  end if;
end;
$$;
grant execute on function app_public.idempotency_claim(text, bytea, text, text, text, bytea, integer) to :APP_USER;

-- Called inside the handler's transaction. Raises SWIDL when the claim was taken over
-- meanwhile (the holder outlived its lock), which rolls the handler's work back.
create function app_public.idempotency_complete(
  p_key_prefix text, p_key_hash bytea, p_idempotency_key text, p_claim_token uuid,
  p_status integer, p_headers jsonb, p_body bytea)
  returns void
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
begin
  update app_private.idempotency_records r
    set state = 'completed', locked_until = null, response_status = p_status,
        response_headers = p_headers, response_body = p_body
    where r.user_id = app_private.key_user_id(p_key_prefix, p_key_hash)
      and r.idempotency_key = p_idempotency_key and r.claim_token = p_claim_token
      and r.state = 'in_flight';
  if not found then
    raise exception 'idempotency claim was lost' using errcode = 'SWIDL';
  end if;
end;
$$;
grant execute on function app_public.idempotency_complete(text, bytea, text, uuid, integer, jsonb, bytea) to :APP_USER;

-- Gives a claim back when the request ended without a stored response (an error), so the
-- client may retry with the same key.
create function app_public.idempotency_release(
  p_key_prefix text, p_key_hash bytea, p_idempotency_key text, p_claim_token uuid)
  returns void
  language sql volatile security definer
  set search_path = pg_catalog
as $$
  delete from app_private.idempotency_records r
    where r.user_id = app_private.key_user_id(p_key_prefix, p_key_hash)
      and r.idempotency_key = p_idempotency_key and r.claim_token = p_claim_token
      and r.state = 'in_flight'
$$;
grant execute on function app_public.idempotency_release(text, bytea, text, uuid) to :APP_USER;

create function app_private.expire_idempotency_records() returns integer
  language sql volatile
  set search_path = pg_catalog
as $$
  with gone as (
    delete from app_private.idempotency_records where expires_at <= now() returning 1
  )
  select count(*)::integer from gone
$$;

-------------------------------------------------------------------------------
-- Machines and materials: a shared catalogue; a user sees the entries assigned to them.

create table app_public.machines (
  product_id text primary key check (product_id ~ '^[A-Za-z0-9._-]{1,64}$'),
  name text not null,
  -- the postprocessor that writes this machine's G-code (kernel/post/<control>.ts)
  control text not null,
  travel_x_mm numeric not null check (travel_x_mm > 0),
  travel_y_mm numeric not null check (travel_y_mm > 0),
  travel_z_mm numeric not null check (travel_z_mm > 0),
  max_spindle_rpm integer not null check (max_spindle_rpm > 0),
  max_feed_mm_min numeric not null check (max_feed_mm_min > 0),
  tool_slots integer not null check (tool_slots >= 0),
  -- machine hour rate when nobody set one (EUR/h)
  default_mhr numeric not null check (default_mhr >= 0),
  -- a new user's machines are assigned in this order; the first is a project's default
  listing_order integer not null default 1000,
  created_at timestamptz not null default now()
);

create table app_public.user_machines (
  user_id uuid not null references app_public.users on delete cascade,
  product_id text not null references app_public.machines on delete cascade,
  position integer not null,
  assigned_at timestamptz not null default now(),
  primary key (user_id, product_id)
);
create unique index user_machines_position_key on app_public.user_machines (user_id, position);

alter table app_public.user_machines enable row level security;
create policy user_machines_own on app_public.user_machines for select
  using (user_id = app_public.current_user_id());
alter table app_public.machines enable row level security;
create policy machines_assigned on app_public.machines for select using (
  exists (select 1 from app_public.user_machines um
    where um.product_id = machines.product_id and um.user_id = app_public.current_user_id()));
grant select on app_public.machines, app_public.user_machines to :APP_USER;

create table app_public.materials (
  id text primary key check (id ~ '^[A-Za-z0-9._-]{1,64}$'),
  name text not null,
  category text not null,
  density_kg_m3 numeric not null check (density_kg_m3 > 0),
  price_per_kg numeric not null check (price_per_kg >= 0),
  -- whether every user may use it, or only those granted in user_materials
  is_public boolean not null default true,
  created_at timestamptz not null default now()
);
create table app_public.user_materials (
  user_id uuid not null references app_public.users on delete cascade,
  material_id text not null references app_public.materials on delete cascade,
  primary key (user_id, material_id)
);
alter table app_public.user_materials enable row level security;
create policy user_materials_own on app_public.user_materials for select
  using (user_id = app_public.current_user_id());
alter table app_public.materials enable row level security;
create policy materials_accessible on app_public.materials for select using (
  app_public.current_user_id() is not null and (is_public or exists (
    select 1 from app_public.user_materials um
      where um.material_id = materials.id and um.user_id = app_public.current_user_id())));
grant select on app_public.materials, app_public.user_materials to :APP_USER;

-------------------------------------------------------------------------------
-- Equipment libraries (the tool library issue fills in assemblies, holders and tools).

create table app_public.equipment_libraries (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default app_public.current_user_id() references app_public.users on delete cascade,
  name text not null check (length(name) between 1 and 200),
  description text not null default '',
  is_remote boolean not null default false,
  remote_data jsonb not null default '{}',
  is_default boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index equipment_libraries_user_id_idx on app_public.equipment_libraries (user_id);
create unique index equipment_libraries_one_default on app_public.equipment_libraries (user_id) where is_default;
alter table app_public.equipment_libraries enable row level security;
create policy equipment_libraries_own on app_public.equipment_libraries for all
  using (user_id = app_public.current_user_id())
  with check (user_id = app_public.current_user_id());
grant select, insert, update, delete on app_public.equipment_libraries to :APP_USER;

-------------------------------------------------------------------------------
-- Quote settings: the per-user layer of the quote defaults (percentages are percent).

create table app_public.quote_settings (
  user_id uuid primary key default app_public.current_user_id() references app_public.users on delete cascade,
  overhead_percentage numeric not null default 15 check (overhead_percentage >= 0),
  tax numeric not null default 19 check (tax >= 0),
  discount numeric not null default 0 check (discount between 0 and 100),
  profit numeric not null default 10 check (profit >= 0),
  default_cost_per_m2 numeric not null default 10 check (default_cost_per_m2 >= 0),
  default_energy_cost numeric not null default 0.25 check (default_energy_cost >= 0),
  updated_at timestamptz not null default now()
);
alter table app_public.quote_settings enable row level security;
create policy quote_settings_own on app_public.quote_settings for all
  using (user_id = app_public.current_user_id())
  with check (user_id = app_public.current_user_id());
grant select, update on app_public.quote_settings to :APP_USER;

-------------------------------------------------------------------------------
-- Projects. Deletion is soft: deleted_at hides the row from every policy at once, and a
-- trigger queues purge_project, which removes the rows and blobs in the background.

create table app_public.projects (
  id uuid primary key default gen_random_uuid(),
  -- orders the project list for cursor pagination (see tasks.seq)
  seq bigint generated always as identity unique,
  user_id uuid not null default app_public.current_user_id() references app_public.users on delete cascade,
  name text not null check (length(name) between 1 and 200),
  customer text not null check (length(customer) <= 200),
  product_id text not null references app_public.machines,
  material_id text references app_public.materials,
  library_id uuid references app_public.equipment_libraries on delete set null,
  current_job_id uuid,
  contact_name text,
  contact_email text,
  contact_phone text,
  contact_company text,
  contact_address text,
  reference text,
  notes text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index projects_user_seq_idx on app_public.projects (user_id, seq desc) where deleted_at is null;
alter table app_public.projects enable row level security;
create policy projects_select on app_public.projects for select
  using (user_id = app_public.current_user_id() and deleted_at is null);
create policy projects_insert on app_public.projects for insert
  with check (user_id = app_public.current_user_id() and deleted_at is null);
create policy projects_update on app_public.projects for update
  using (user_id = app_public.current_user_id() and deleted_at is null)
  with check (user_id = app_public.current_user_id() and deleted_at is null);
grant select, insert, update (name, customer, product_id, material_id, library_id, current_job_id,
  contact_name, contact_email, contact_phone, contact_company, contact_address, reference, notes,
  updated_at) on app_public.projects to :APP_USER;

-- Soft delete. An UPDATE under RLS may not make its row invisible to the SELECT policy, so
-- this runs as the owner and filters on the caller itself. False: no such live project.
create function app_public.soft_delete_project(p_project_id uuid) returns boolean
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
begin
  update app_public.projects set deleted_at = now()
    where id = p_project_id and user_id = app_public.current_user_id() and deleted_at is null;
  return found;
end;
$$;
grant execute on function app_public.soft_delete_project(uuid) to :APP_USER;

-- A project's references must be the owner's: RLS hides other users' rows from reads, but a
-- foreign key check does not go through RLS, so the checks live here.
create function app_private.tg_projects__check_references() returns trigger
  language plpgsql
  set search_path = pg_catalog
as $$
begin
  if new.product_id is distinct from (case when tg_op = 'UPDATE' then old.product_id end)
     and not exists (select 1 from app_public.user_machines um
       where um.user_id = new.user_id and um.product_id = new.product_id) then
    raise exception 'machine % is not assigned to this user', new.product_id
      using errcode = 'SWREF', hint = 'product_id';
  end if;
  if new.material_id is not null
     and new.material_id is distinct from (case when tg_op = 'UPDATE' then old.material_id end)
     and not exists (select 1 from app_public.materials m where m.id = new.material_id
       and (m.is_public or exists (select 1 from app_public.user_materials um
         where um.user_id = new.user_id and um.material_id = m.id))) then
    raise exception 'material % is not available to this user', new.material_id
      using errcode = 'SWREF', hint = 'material_id';
  end if;
  if new.library_id is not null
     and new.library_id is distinct from (case when tg_op = 'UPDATE' then old.library_id end)
     and not exists (select 1 from app_public.equipment_libraries l
       where l.id = new.library_id and l.user_id = new.user_id) then
    raise exception 'equipment library % does not exist', new.library_id
      using errcode = 'SWREF', hint = 'library_id';
  end if;
  new.updated_at := now();
  return new;
end;
$$;
create trigger _100_check_references before insert or update on app_public.projects
  for each row execute function app_private.tg_projects__check_references();

-------------------------------------------------------------------------------
-- Quote job, 1:1 with its project, created with the project from the user's settings.

create table app_public.quote_jobs (
  project_id uuid primary key references app_public.projects on delete cascade,
  user_id uuid not null references app_public.users on delete cascade,
  quantity numeric not null default 1 check (quantity > 0),
  mhr_override numeric check (mhr_override >= 0),
  overhead_percentage numeric not null check (overhead_percentage >= 0),
  tax numeric not null check (tax >= 0),
  discount numeric not null check (discount between 0 and 100),
  profit numeric not null check (profit >= 0),
  material_is_fixed_price boolean not null default false,
  material_fixed_price numeric not null default 0 check (material_fixed_price >= 0),
  additional_costs jsonb not null default '{}' check (jsonb_typeof(additional_costs) = 'object'),
  setup_costs jsonb not null default '{}' check (jsonb_typeof(setup_costs) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table app_public.quote_jobs enable row level security;
create policy quote_jobs_own on app_public.quote_jobs for all
  using (user_id = app_public.current_user_id()
    and exists (select 1 from app_public.projects p where p.id = quote_jobs.project_id))
  with check (user_id = app_public.current_user_id());
grant select, insert, update on app_public.quote_jobs to :APP_USER;

create function app_private.tg_projects__create_quote_job() returns trigger
  language plpgsql
  set search_path = pg_catalog
as $$
begin
  insert into app_public.quote_jobs (project_id, user_id, overhead_percentage, tax, discount, profit)
    select new.id, new.user_id, s.overhead_percentage, s.tax, s.discount, s.profit
      from app_public.quote_settings s where s.user_id = new.user_id;
  if not found then
    raise exception 'user % has no quote settings', new.user_id;
  end if;
  return null;
end;
$$;
create trigger _200_create_quote_job after insert on app_public.projects
  for each row execute function app_private.tg_projects__create_quote_job();

create function app_private.tg_projects__enqueue_purge() returns trigger
  language plpgsql security definer
  set search_path = pg_catalog
as $$
begin
  perform graphile_worker.add_job('purge_project', json_build_object('project_id', new.id),
    job_key := 'purge_project:' || new.id, max_attempts := 10);
  return null;
end;
$$;
create trigger _300_enqueue_purge after update of deleted_at on app_public.projects
  for each row when (old.deleted_at is null and new.deleted_at is not null)
  execute function app_private.tg_projects__enqueue_purge();

-------------------------------------------------------------------------------
-- Tasks: our durable record of every user-visible background task, kept indefinitely (a
-- graphile-worker job disappears when it completes). `seq` orders a project's tasks for
-- cursor pagination: it only grows, so a page boundary never moves under concurrent inserts.
--
-- States (tasks/runtime/tracked-task.ts moves them):
--
--   queued ──(a worker picks it up; attempts += 1)──> running
--   running ──(handler returns)──────────────────────> success      terminal, progress = 1
--   running ──(TaskFailure, or the last attempt throws)> failed     terminal, error = {code, message}
--   running ──(cancel honoured)──────────────────────> cancelled    terminal
--   running ──(throws with attempts left)────────────> queued       graphile-worker retries with backoff
--   running ──(its worker's lease expires)───────────> queued       app_private.recover_dead_workers
--   running ──(lease expires in the last attempt)────> failed       worker_lost
--   queued  ──(cancel before it started)─────────────> cancelled    terminal

create table app_public.tasks (
  id uuid primary key default gen_random_uuid(),
  seq bigint generated always as identity unique,
  user_id uuid not null default app_public.current_user_id() references app_public.users on delete cascade,
  -- not a foreign key: task records outlive their project's purge
  project_id uuid,
  task_name text not null check (task_name ~ '^[a-z][a-z0-9_.]*$'),
  -- which graphile-worker task runs it, and in which named queue (null: no queue)
  worker_task text not null check (worker_task ~ '^[a-z][a-z0-9_.]*$'),
  queue_name text,
  status text not null default 'queued'
    check (status in ('queued', 'running', 'success', 'failed', 'cancelled')),
  progress double precision not null default 0 check (progress between 0 and 1),
  payload jsonb not null default '{}',
  result jsonb,
  error jsonb check (error is null or (error ? 'code' and error ? 'message')),
  attempts integer not null default 0,
  max_attempts integer not null default 3 check (max_attempts between 1 and 25),
  locked_by text,
  cancel_requested_at timestamptz,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  heartbeat_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now()
);
create index tasks_project_seq_idx on app_public.tasks (project_id, seq desc);
create index tasks_user_active_idx on app_public.tasks (user_id, seq) where status in ('queued', 'running');
alter table app_public.tasks enable row level security;
create policy tasks_select on app_public.tasks for select using (user_id = app_public.current_user_id());
create policy tasks_insert on app_public.tasks for insert with check (
  user_id = app_public.current_user_id() and status = 'queued' and attempts = 0
  and project_id is not null
  and exists (select 1 from app_public.projects p where p.id = tasks.project_id));
grant select, insert (project_id, task_name, worker_task, queue_name, payload, max_attempts)
  on app_public.tasks to :APP_USER;

-- A task row inserted is a job queued, in the same transaction: no task without its job.
create function app_private.tg_tasks__enqueue() returns trigger
  language plpgsql security definer
  set search_path = pg_catalog
as $$
begin
  perform graphile_worker.add_job(new.worker_task, json_build_object('task_id', new.id),
    queue_name := new.queue_name, max_attempts := new.max_attempts, job_key := new.id::text);
  return null;
end;
$$;
create trigger _500_enqueue after insert on app_public.tasks
  for each row execute function app_private.tg_tasks__enqueue();

-------------------------------------------------------------------------------
-- Worker leases. graphile-worker keeps a job locked for 4 hours when its worker dies; we
-- cannot wait that long. Every runner (one graphile-worker pool) holds a lease it renews
-- every few seconds; a lease not renewed for the stale interval means the process is gone
-- (or its event loop is stuck), and recover_dead_workers hands its jobs back.

create table app_private.worker_leases (
  pool_id text primary key,
  hostname text not null,
  pid integer not null,
  task_names text[] not null,
  started_at timestamptz not null default now(),
  heartbeat_at timestamptz not null default now()
);

-- A pool is dead when it holds a job locked for longer than the stale interval and has no
-- lease renewed within it. That covers a pool that died before writing its first lease too.
create function app_private.recover_dead_workers(p_stale interval)
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

-------------------------------------------------------------------------------
-- For DBAs and operators: each task beside its queue job and the lease of the worker
-- holding it. `select * from app_private.task_queue_state where status = 'running';`

create view app_private.task_queue_state as
  select t.id as task_id, t.task_name, t.status, t.progress, t.attempts as task_attempts,
         t.max_attempts, u.email as user_email, t.project_id, t.queue_name,
         t.created_at, t.started_at, t.heartbeat_at, t.finished_at, t.error,
         j.id as job_id, j.run_at as job_run_at, j.attempts as job_attempts,
         j.locked_at as job_locked_at, j.locked_by as job_locked_by, j.last_error as job_last_error,
         l.hostname as worker_hostname, l.pid as worker_pid, l.heartbeat_at as worker_heartbeat_at
    from app_public.tasks t
    join app_public.users u on u.id = t.user_id
    left join graphile_worker.jobs j on j.key = t.id::text
    left join app_private.worker_leases l on l.pool_id = coalesce(j.locked_by, t.locked_by);

-------------------------------------------------------------------------------
-- Seeds: the machines and materials every installation starts with.

insert into app_public.machines
  (product_id, name, control, travel_x_mm, travel_y_mm, travel_z_mm, max_spindle_rpm, max_feed_mm_min, tool_slots, default_mhr, listing_order)
values
  ('linuxcnc-3axis', 'LinuxCNC 3-axis mill', 'linuxcnc', 600, 400, 300, 12000, 6000, 10, 45, 1),
  ('haas-vf2', 'Haas VF-2', 'haas', 762, 406, 508, 8100, 16500, 20, 85, 2),
  ('fanuc-robodrill-d21', 'FANUC ROBODRILL α-D21MiB5', 'fanuc', 500, 400, 330, 10000, 54000, 21, 95, 3),
  ('dmg-dmc-850v', 'DMG MORI DMC 850 V', 'siemens', 850, 520, 475, 14000, 42000, 30, 110, 4),
  ('hermle-c250', 'Hermle C 250', 'heidenhain', 600, 550, 450, 18000, 45000, 36, 130, 5),
  ('grbl-router', 'Grbl 1.1 router', 'grbl', 800, 600, 120, 24000, 5000, 0, 30, 6);

insert into app_public.materials (id, name, category, density_kg_m3, price_per_kg) values
  ('AlMg4.5Mn', 'EN AW-5083 AlMg4.5Mn', 'aluminium', 2660, 6.5),
  ('AlMgSi1', 'EN AW-6082 AlSi1MgMn', 'aluminium', 2700, 5.8),
  ('AlZnMgCu1.5', 'EN AW-7075 AlZn5.5MgCu', 'aluminium', 2810, 12.0),
  ('S235JR', 'S235JR structural steel (1.0038)', 'steel', 7850, 1.6),
  ('C45', 'C45 carbon steel (1.0503)', 'steel', 7850, 2.1),
  ('42CrMo4', '42CrMo4 alloy steel (1.7225)', 'steel', 7720, 3.2),
  ('X5CrNi18-10', 'X5CrNi18-10 stainless (1.4301, 304)', 'stainless', 7900, 5.5),
  ('X2CrNiMo17-12-2', 'X2CrNiMo17-12-2 stainless (1.4404, 316L)', 'stainless', 8000, 7.5),
  ('CuZn39Pb3', 'CuZn39Pb3 free-cutting brass (2.0401)', 'brass', 8470, 8.9),
  ('POM-C', 'POM-C acetal copolymer', 'plastic', 1410, 6.0),
  ('PA6', 'PA 6 polyamide', 'plastic', 1140, 5.0),
  ('Ti6Al4V', 'Ti6Al4V grade 5 titanium (3.7165)', 'titanium', 4430, 38.0);

-------------------------------------------------------------------------------
-- New users: machines, a default equipment library and quote settings. Called by the CLI
-- (and the web app's sign-up), as the owner.

create function app_private.create_user(p_email text) returns app_public.users
  language plpgsql volatile
  set search_path = pg_catalog
as $$
declare
  v_user app_public.users;
begin
  insert into app_public.users (email) values (p_email) returning * into v_user;
  insert into app_public.user_machines (user_id, product_id, position)
    select v_user.id, m.product_id, row_number() over (order by m.listing_order, m.product_id)
      from app_public.machines m;
  insert into app_public.equipment_libraries (user_id, name, description, is_default)
    values (v_user.id, 'Default library', 'Created with the account', true);
  insert into app_public.quote_settings (user_id) values (v_user.id);
  return v_user;
end;
$$;
