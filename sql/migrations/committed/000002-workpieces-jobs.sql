--! Previous: sha1:507c01590681b44672c7ffd46ed9e0af0cac5e88
--! Hash: sha1:c548bac51c89fa0954d77a4f475ac08f7d18e415
--! Message: workpieces and jobs

-- Workpiece ingest: blobs (the uploaded file, its B-rep, mesh and thumbnail), workpieces, and
-- CAM jobs with their undo stack; server secrets for presigned URLs and .famc job files.
--
-- Blobs live in app_private: the API role reaches them only through the SECURITY DEFINER
-- functions below, each of which checks app_public.current_user_id() (or, for a presigned
-- URL, the URL's signature) itself. RLS on an app_public table would guard rows as well, but
-- the public file route has no user identity at all, and a function that verifies the
-- signature in SQL is what lets it read one blob without opening the table to the role.
-- Blobs are content-addressed per user: the same bytes stored twice by one user are one row
-- (a re-upload or a job rollback stores nothing new); never across users, so nobody can
-- learn whether someone else holds a file.
--
-- Secrets (app_private.server_secrets) are generated here, once per database, and never leave
-- it: HMACs are computed by the functions below, so every API process shares them and no
-- process holds them. HMAC-SHA256 is written out over the built-in sha256() (no pgcrypto):
-- one extension fewer for an operator's PostgreSQL to provide.

-------------------------------------------------------------------------------
-- Server secrets and HMAC-SHA256

create table app_private.server_secrets (
  id integer generated always as identity primary key,
  purpose text not null check (purpose in ('presign', 'famc')),
  secret bytea not null check (length(secret) >= 32),
  created_at timestamptz not null default now()
);
-- 3 x 122 random bits of gen_random_uuid() (the server's strong random source), hashed to 32 bytes.
insert into app_private.server_secrets (purpose, secret)
  select p.purpose, sha256(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()))
    from (values ('presign'), ('famc')) as p(purpose);

-- RFC 2104 over sha256 (block size 64 bytes).
create function app_private.hmac_sha256(p_key bytea, p_message bytea) returns bytea
  language plpgsql immutable strict parallel safe
  set search_path = pg_catalog
as $$
declare
  v_key bytea := case when length(p_key) > 64 then sha256(p_key) else p_key end;
  v_inner bytea;
  v_outer bytea;
begin
  v_key := v_key || decode(repeat('00', 64 - length(v_key)), 'hex');
  v_inner := v_key;
  v_outer := v_key;
  for i in 0 .. 63 loop
    v_inner := set_byte(v_inner, i, get_byte(v_key, i) # 54);   -- 0x36
    v_outer := set_byte(v_outer, i, get_byte(v_key, i) # 92);   -- 0x5c
  end loop;
  return sha256(v_outer || sha256(v_inner || p_message));
end;
$$;

-- The MAC of a message with the newest secret of a purpose.
create function app_private.server_mac(p_purpose text, p_message bytea) returns bytea
  language sql stable
  set search_path = pg_catalog
as $$
  select app_private.hmac_sha256(s.secret, p_message) from app_private.server_secrets s
    where s.purpose = p_purpose order by s.id desc limit 1
$$;

-- Whether p_mac is the MAC of the message under any secret of the purpose (rotation: insert a
-- new secret, which signs from then on; delete the old one when what it signed may stop
-- working). Compared as MACs of themselves, so the comparison's timing says nothing about the
-- expected value.
create function app_private.server_mac_matches(p_purpose text, p_message bytea, p_mac bytea) returns boolean
  language sql stable
  set search_path = pg_catalog
as $$
  select p_mac is not null and exists (
    select 1 from app_private.server_secrets s
      where s.purpose = p_purpose
        and app_private.hmac_sha256(s.secret, app_private.hmac_sha256(s.secret, p_message))
          = app_private.hmac_sha256(s.secret, p_mac))
$$;

-------------------------------------------------------------------------------
-- Blobs

create table app_private.blobs (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references app_public.users on delete cascade,
  sha256 bytea not null check (length(sha256) = 32),
  size bigint not null check (size >= 0),
  content_type text not null check (content_type ~ '^[a-z]+/[a-z0-9.+-]{1,100}$'),
  bytes bytea not null,
  created_at timestamptz not null default now(),
  check (size = length(bytes)),
  constraint blobs_content_key unique (user_id, sha256, content_type)
);

-- A user's blobs are referenced (find_blob, put_blob: shared) or deleted (purge_project,
-- delete_blob: exclusive) under this transaction-scoped lock, taken before any row. A purge
-- thus waits for the requests that are about to reference a blob to commit, and then sees
-- their references; a request that comes later waits for the purge. No row locks are taken
-- in varying order, so the two cannot deadlock.
create function app_private.lock_user_blobs(p_user_id uuid, p_exclusive boolean) returns void
  language plpgsql volatile
  set search_path = pg_catalog
as $$
begin
  if p_exclusive then
    perform pg_advisory_xact_lock(hashtextextended('swarf.blobs:' || p_user_id, 0));
  else
    perform pg_advisory_xact_lock_shared(hashtextextended('swarf.blobs:' || p_user_id, 0));
  end if;
end;
$$;

-- The caller's blob holding exactly this content, or null. It cannot be purged before the
-- caller's transaction ends (lock_user_blobs).
create function app_public.find_blob(p_sha256 bytea, p_content_type text) returns uuid
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  v_user_id uuid := app_public.current_user_id();
begin
  if v_user_id is null then
    return null;
  end if;
  perform app_private.lock_user_blobs(v_user_id, false);
  return (select b.id from app_private.blobs b
    where b.user_id = v_user_id and b.sha256 = p_sha256 and b.content_type = p_content_type);
end;
$$;
grant execute on function app_public.find_blob(bytea, text) to :APP_USER;

-- Stores bytes for the caller, or returns the caller's existing blob with the same content.
-- The hash is computed here, not taken from the client of this function.
create function app_public.put_blob(p_bytes bytea, p_content_type text)
  returns table (blob_id uuid, blob_sha256 bytea, blob_size bigint)
  language plpgsql volatile security definer
  set search_path = pg_catalog
as $$
declare
  v_user_id uuid := app_public.current_user_id();
begin
  if v_user_id is null then
    raise exception 'no request identity' using errcode = '42501';
  end if;
  perform app_private.lock_user_blobs(v_user_id, false);
  return query
    insert into app_private.blobs as b (user_id, sha256, size, content_type, bytes)
      values (v_user_id, sha256(p_bytes), length(p_bytes), p_content_type, p_bytes)
      on conflict on constraint blobs_content_key do update set size = excluded.size
      returning b.id, b.sha256, b.size;
end;
$$;
grant execute on function app_public.put_blob(bytea, text) to :APP_USER;

create function app_public.stat_blob(p_blob_id uuid)
  returns table (blob_id uuid, sha256 bytea, size bigint, content_type text, created_at timestamptz)
  language sql stable security definer
  set search_path = pg_catalog
as $$
  select b.id, b.sha256, b.size, b.content_type, b.created_at from app_private.blobs b
    where b.id = p_blob_id and b.user_id = app_public.current_user_id()
$$;
grant execute on function app_public.stat_blob(uuid) to :APP_USER;

create function app_public.read_blob(p_blob_id uuid)
  returns table (blob_id uuid, sha256 bytea, size bigint, content_type text, created_at timestamptz, bytes bytea)
  language sql stable security definer
  set search_path = pg_catalog
as $$
  select b.id, b.sha256, b.size, b.content_type, b.created_at, b.bytes from app_private.blobs b
    where b.id = p_blob_id and b.user_id = app_public.current_user_id()
$$;
grant execute on function app_public.read_blob(uuid) to :APP_USER;

-------------------------------------------------------------------------------
-- Workpieces: what ingesting one uploaded file produced. Immutable; a new upload is a new row
-- (and a new job). The blob columns point at the owner's blobs only (checked below: a
-- foreign key does not see whose blob it is).

create table app_public.workpieces (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references app_public.projects on delete cascade,
  user_id uuid not null default app_public.current_user_id() references app_public.users on delete cascade,
  format text not null check (format in ('step', 'stl', 'brep')),
  original_filename text check (length(original_filename) between 1 and 255),
  -- the length unit the file declared ("mm", "inch", ...; "unknown" for STL); the rest is mm
  units_read text not null check (length(units_read) between 1 and 32),
  bbox_min double precision[] not null,
  bbox_max double precision[] not null,
  volume_mm3 double precision check (volume_mm3 between 0 and 1e27),
  face_count integer not null check (face_count >= 0),
  triangle_count integer not null check (triangle_count >= 0),
  closed_solid boolean not null,
  warnings jsonb not null default '[]' check (jsonb_typeof(warnings) = 'array'),
  original_blob_id uuid not null references app_private.blobs,
  brep_blob_id uuid references app_private.blobs,
  mesh_blob_id uuid not null references app_private.blobs,
  thumbnail_blob_id uuid not null references app_private.blobs,
  created_at timestamptz not null default now(),
  -- finite, three coordinates each, min <= max (a NaN fails these comparisons)
  check (cardinality(bbox_min) = 3 and cardinality(bbox_max) = 3
    and bbox_min[1] <= bbox_max[1] and bbox_min[2] <= bbox_max[2] and bbox_min[3] <= bbox_max[3]
    and -1e9 < all(bbox_min) and 1e9 > all(bbox_max)),
  -- for the composite foreign key from jobs: a job's workpiece is one of its project's
  constraint workpieces_id_project_key unique (id, project_id)
);
create index workpieces_project_id_idx on app_public.workpieces (project_id);
-- a purge looks up, and a blob's deletion checks, the workpieces that use a blob
create index workpieces_original_blob_idx on app_public.workpieces (original_blob_id);
create index workpieces_brep_blob_idx on app_public.workpieces (brep_blob_id) where brep_blob_id is not null;
create index workpieces_mesh_blob_idx on app_public.workpieces (mesh_blob_id);
create index workpieces_thumbnail_blob_idx on app_public.workpieces (thumbnail_blob_id);
alter table app_public.workpieces enable row level security;
create policy workpieces_select on app_public.workpieces for select
  using (user_id = app_public.current_user_id()
    and exists (select 1 from app_public.projects p where p.id = workpieces.project_id));
create policy workpieces_insert on app_public.workpieces for insert
  with check (user_id = app_public.current_user_id()
    and exists (select 1 from app_public.projects p where p.id = workpieces.project_id));
grant select, insert (project_id, format, original_filename, units_read, bbox_min, bbox_max, volume_mm3,
  face_count, triangle_count, closed_solid, warnings, original_blob_id, brep_blob_id, mesh_blob_id,
  thumbnail_blob_id) on app_public.workpieces to :APP_USER;

-- Each blob must be the workpiece owner's, of the kind its column holds.
create function app_private.tg_workpieces__check_blobs() returns trigger
  language plpgsql security definer
  set search_path = pg_catalog
as $$
declare
  r record;
begin
  for r in
    select v.field, v.blob_id, v.content_types from (values
      ('original_blob_id', new.original_blob_id, array['model/step', 'model/stl', 'model/x-occt-brep']),
      ('brep_blob_id', new.brep_blob_id, array['model/x-occt-brep']),
      ('mesh_blob_id', new.mesh_blob_id, array['model/gltf-binary']),
      ('thumbnail_blob_id', new.thumbnail_blob_id, array['image/png'])) as v(field, blob_id, content_types)
    where v.blob_id is not null
  loop
    if not exists (select 1 from app_private.blobs b
        where b.id = r.blob_id and b.user_id = new.user_id and b.content_type = any(r.content_types)) then
      raise exception 'blob % is not a % blob of this user', r.blob_id, array_to_string(r.content_types, ' or ')
        using errcode = 'SWREF', hint = r.field;
    end if;
  end loop;
  return new;
end;
$$;
create trigger _100_check_blobs before insert on app_public.workpieces
  for each row execute function app_private.tg_workpieces__check_blobs();

-- Deletes one of the caller's blobs that no workpiece uses. False when it is in use, missing
-- or someone else's.
create function app_public.delete_blob(p_blob_id uuid) returns boolean
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
      and not exists (select 1 from app_public.workpieces w
        where p_blob_id in (w.original_blob_id, w.brep_blob_id, w.mesh_blob_id, w.thumbnail_blob_id));
  return found;
end;
$$;
grant execute on function app_public.delete_blob(uuid) to :APP_USER;

-------------------------------------------------------------------------------
-- CAM jobs. Every save is a new, immutable row; parent_job_id is the job that was current
-- before it, so following parents from projects.current_job_id walks the undo stack. The
-- triggers below make that hold for every insert: parent_job_id is the project's current
-- job (taken under a row lock on the project, so concurrent saves chain instead of losing
-- one), and the new job becomes current. Only they move current_job_id.

create table app_public.jobs (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references app_public.projects on delete cascade,
  user_id uuid not null default app_public.current_user_id() references app_public.users on delete cascade,
  parent_job_id uuid,
  workpiece_id uuid,
  -- what made this job: a workpiece upload, a stock change, an uploaded .famc (later: planning, ...)
  source text not null check (source in ('workpiece', 'stock', 'import')),
  -- source 'import': the job id recorded in the uploaded file
  origin_job_id uuid,
  -- {type: "bounding_box", offsets: {minus_x, ...}, min, max, size} (kernel/job/stock.ts); null: none yet
  stock jsonb check (jsonb_typeof(stock) = 'object'),
  -- the machine as it was when the job was saved (kernel/job/types.ts MachineSnapshot)
  machine jsonb not null check (jsonb_typeof(machine) = 'object'),
  created_at timestamptz not null default now(),
  constraint jobs_id_project_key unique (id, project_id),
  constraint jobs_parent_fkey foreign key (parent_job_id, project_id) references app_public.jobs (id, project_id),
  constraint jobs_workpiece_fkey foreign key (workpiece_id, project_id) references app_public.workpieces (id, project_id),
  check (stock is null or workpiece_id is not null),
  check ((source = 'import') = (origin_job_id is not null))
);
create index jobs_project_id_idx on app_public.jobs (project_id);
create index jobs_parent_job_id_idx on app_public.jobs (parent_job_id) where parent_job_id is not null;
create index jobs_workpiece_id_idx on app_public.jobs (workpiece_id) where workpiece_id is not null;
alter table app_public.jobs enable row level security;
create policy jobs_select on app_public.jobs for select
  using (user_id = app_public.current_user_id()
    and exists (select 1 from app_public.projects p where p.id = jobs.project_id));
create policy jobs_insert on app_public.jobs for insert
  with check (user_id = app_public.current_user_id()
    and exists (select 1 from app_public.projects p where p.id = jobs.project_id));
grant select, insert (project_id, workpiece_id, source, origin_job_id, stock, machine) on app_public.jobs to :APP_USER;

-- A project's current job is one of its own jobs.
alter table app_public.projects add constraint projects_current_job_fkey
  foreign key (current_job_id, id) references app_public.jobs (id, project_id);
-- ... and only a new job moves it (the trigger below, as the owner).
revoke update (current_job_id) on app_public.projects from :APP_USER;

create function app_private.machine_snapshot(p_product_id text) returns jsonb
  language sql stable
  set search_path = pg_catalog
as $$
  select jsonb_build_object(
      'product_id', m.product_id, 'name', m.name, 'control', m.control,
      'travel_mm', jsonb_build_array(m.travel_x_mm, m.travel_y_mm, m.travel_z_mm),
      'max_spindle_rpm', m.max_spindle_rpm, 'max_feed_mm_min', m.max_feed_mm_min, 'tool_slots', m.tool_slots)
    from app_public.machines m where m.product_id = p_product_id
$$;

-- Before insert: lock the project, push its current job as the parent, and snapshot the
-- project's machine unless the job brings its own (an import).
create function app_private.tg_jobs__push() returns trigger
  language plpgsql security definer
  set search_path = pg_catalog
as $$
declare
  v_product_id text;
begin
  select p.current_job_id, p.product_id into new.parent_job_id, v_product_id
    from app_public.projects p
    where p.id = new.project_id and p.user_id = new.user_id and p.deleted_at is null
    for no key update;
  if not found then
    raise exception 'project % does not exist', new.project_id using errcode = 'SWREF', hint = 'project_id';
  end if;
  new.machine := coalesce(new.machine, app_private.machine_snapshot(v_product_id));
  return new;
end;
$$;
create trigger _100_push before insert on app_public.jobs
  for each row execute function app_private.tg_jobs__push();

create function app_private.tg_jobs__make_current() returns trigger
  language plpgsql security definer
  set search_path = pg_catalog
as $$
begin
  update app_public.projects set current_job_id = new.id where id = new.project_id;
  return null;
end;
$$;
create trigger _200_make_current after insert on app_public.jobs
  for each row execute function app_private.tg_jobs__make_current();

-------------------------------------------------------------------------------
-- Presigned URLs of a workpiece's mesh and thumbnail (GET /files/{blob_id}?purpose&expires&signature,
-- no key). The signature is HMAC-SHA256 with the 'presign' secret over the message below;
-- storage/presign.ts builds the same message.

create function app_private.presign_message(p_blob_id uuid, p_purpose text, p_expires bigint) returns bytea
  language sql stable
  set search_path = pg_catalog
as $$
  select convert_to(format(E'swarf.presign.v1\n%s\n%s\n%s', p_blob_id, p_purpose, p_expires), 'UTF8')
$$;

-- A live project's workpiece uses the blob in the role the purpose names. Only a mesh or a
-- thumbnail can be presigned: the B-rep and the original file are never served.
create function app_private.blob_serves(p_blob_id uuid, p_purpose text, p_user_id uuid) returns boolean
  language sql stable
  set search_path = pg_catalog
as $$
  select exists (select 1 from app_public.workpieces w
      join app_public.projects p on p.id = w.project_id and p.deleted_at is null
    where w.user_id = p_user_id
      and case p_purpose when 'mesh' then w.mesh_blob_id when 'thumbnail' then w.thumbnail_blob_id end = p_blob_id)
$$;

-- The signature for the caller's blob, or null when the caller has no live workpiece using
-- it for that purpose. Expiry: Unix seconds, within 7 days.
create function app_public.presign_blob(p_blob_id uuid, p_purpose text, p_expires bigint) returns bytea
  language plpgsql stable security definer
  set search_path = pg_catalog
as $$
begin
  if p_expires is null or p_expires <= extract(epoch from now())
     or p_expires > extract(epoch from now()) + 7 * 86400 then
    raise exception 'a presigned URL expires within 7 days from now' using errcode = '22023';
  end if;
  if not app_private.blob_serves(p_blob_id, p_purpose, app_public.current_user_id()) then
    return null;
  end if;
  return app_private.server_mac('presign', app_private.presign_message(p_blob_id, p_purpose, p_expires));
end;
$$;
grant execute on function app_public.presign_blob(uuid, text, bigint) to :APP_USER;

-- For the public file route, which has no user: the blob when the signature is right and
-- unexpired. outcome: 'ok' (the other columns are set), 'invalid_signature', 'expired', or
-- 'not_found': signed, but no live project of the owner uses the blob in that role any more.
-- A URL names content (blobs are content-addressed), so deleting a project revokes its URLs
-- at once unless another of the owner's live projects holds the very same file.
create function app_public.read_presigned_blob(p_blob_id uuid, p_purpose text, p_expires bigint, p_signature bytea)
  returns table (outcome text, sha256 bytea, size bigint, content_type text, bytes bytea)
  language plpgsql stable security definer
  set search_path = pg_catalog
as $$
begin
  if not app_private.server_mac_matches('presign', app_private.presign_message(p_blob_id, p_purpose, p_expires), p_signature) then
    return query select 'invalid_signature'::text, null::bytea, null::bigint, null::text, null::bytea;
  elsif p_expires <= extract(epoch from now()) then
    return query select 'expired'::text, null::bytea, null::bigint, null::text, null::bytea;
  else
    return query select 'ok'::text, b.sha256, b.size, b.content_type, b.bytes from app_private.blobs b
      where b.id = p_blob_id and app_private.blob_serves(b.id, p_purpose, b.user_id);
    if not found then
      return query select 'not_found'::text, null::bytea, null::bigint, null::text, null::bytea;
    end if;
  end if;
end;
$$;
grant execute on function app_public.read_presigned_blob(uuid, text, bigint, bytea) to :APP_USER;

-------------------------------------------------------------------------------
-- .famc job files (docs/famc-format.md): the file ends with HMAC-SHA256 with the 'famc'
-- secret over this message, where digest is the SHA-256 of everything before the MAC. The
-- owner is the user the file is bound to: one signs only for oneself.

create function app_private.famc_message(p_owner uuid, p_digest bytea) returns bytea
  language sql stable
  set search_path = pg_catalog
as $$
  select convert_to(format(E'swarf.famc.v1\n%s\n%s', p_owner, encode(p_digest, 'hex')), 'UTF8')
$$;

create function app_public.sign_job_file(p_digest bytea) returns bytea
  language plpgsql stable security definer
  set search_path = pg_catalog
as $$
declare
  v_user_id uuid := app_public.current_user_id();
begin
  if v_user_id is null then
    raise exception 'no request identity' using errcode = '42501';
  end if;
  if length(p_digest) is distinct from 32 then
    raise exception 'a digest is 32 bytes' using errcode = '22023';
  end if;
  return app_private.server_mac('famc', app_private.famc_message(v_user_id, p_digest));
end;
$$;
grant execute on function app_public.sign_job_file(bytea) to :APP_USER;

-- Whether the MAC is this server's for that owner and digest (whoever the caller is: the
-- caller compares the owner with itself).
create function app_public.verify_job_file(p_owner uuid, p_digest bytea, p_mac bytea) returns boolean
  language plpgsql stable security definer
  set search_path = pg_catalog
as $$
begin
  if app_public.current_user_id() is null then
    raise exception 'no request identity' using errcode = '42501';
  end if;
  return app_private.server_mac_matches('famc', app_private.famc_message(p_owner, p_digest), p_mac);
end;
$$;
grant execute on function app_public.verify_job_file(uuid, bytea, bytea) to :APP_USER;

-------------------------------------------------------------------------------
-- Purge (tasks/purge_project.ts): a soft-deleted project's rows (quote job, jobs, workpieces
-- cascade) and the blobs only it used, in one transaction. A blob another project of the
-- user still uses stays, also one that a request running meanwhile is about to use again
-- (lock_user_blobs). The foreign keys from workpieces would refuse the delete of a blob in
-- use in any case.

create function app_private.purge_project(p_project_id uuid)
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
    from app_public.workpieces w
    cross join lateral unnest(array[w.original_blob_id, w.brep_blob_id, w.mesh_blob_id, w.thumbnail_blob_id]) as u(blob_id)
    where w.project_id = p_project_id and u.blob_id is not null;
  delete from app_public.projects where id = p_project_id and deleted_at is not null;
  get diagnostics v_projects = row_count;
  if v_projects = 0 then
    return query select 0, 0;
    return;
  end if;
  delete from app_private.blobs b
    where b.id = any(v_blob_ids)
      and not exists (select 1 from app_public.workpieces w
        where b.id in (w.original_blob_id, w.brep_blob_id, w.mesh_blob_id, w.thumbnail_blob_id));
  get diagnostics v_blobs = row_count;
  return query select v_projects, v_blobs;
end;
$$;
