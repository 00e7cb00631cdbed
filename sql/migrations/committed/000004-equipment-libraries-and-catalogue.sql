--! Previous: sha1:41087f2c678dd1fd99e892c1f46e3ad94a0f359d
--! Hash: sha1:2684e0a17dfe17b886abfa996159a1831fcfc38d
--! Message: equipment libraries and catalogue

-- Tool and equipment libraries, the external tool catalogue, and the columns machines and
-- materials need for planning and quoting. The reference rows themselves (machines,
-- materials, the standard catalogue range) are seeded from kernel/ data by db/seed after every
-- migration run (db/migrate.ts), so there is one source for them.

-------------------------------------------------------------------------------
-- Machines and materials: what planning (spindle, feeds, rapids, tool changes) and quoting
-- (the machine hour rate's cost basis, cutting data) need besides the backbone's columns.

alter table app_public.machines
  add column description text not null default '',
  add column postprocessor text,
  add column min_spindle_rpm integer check (min_spindle_rpm >= 0),
  add column spindle_power_kw numeric check (spindle_power_kw > 0),
  add column spindle_taper text,
  add column rapid_mm_min numeric check (rapid_mm_min > 0),
  add column tool_change_s numeric check (tool_change_s > 0),
  add column purchase_price_eur numeric check (purchase_price_eur >= 0),
  add column resale_value_eur numeric check (resale_value_eur >= 0),
  add column depreciation_years integer check (depreciation_years between 1 and 30),
  add column floor_space_m2 numeric check (floor_space_m2 > 0),
  add column connected_load_kw numeric check (connected_load_kw > 0),
  add column average_power_kw numeric check (average_power_kw > 0);

alter table app_public.materials
  add column iso_group text check (iso_group in ('P', 'M', 'K', 'N', 'S', 'H')),
  add column designations jsonb not null default '[]' check (jsonb_typeof(designations) = 'array'),
  add column condition text,
  add column hardness jsonb check (jsonb_typeof(hardness) = 'object'),
  add column tensile_strength_mpa numeric check (tensile_strength_mpa > 0),
  -- Kienzle: specific cutting force at 1 mm chip thickness, and its exponent
  add column kc1_1_n_mm2 numeric check (kc1_1_n_mm2 > 0),
  add column mc numeric check (mc between 0 and 1),
  add column machinability text,
  -- [{tool_family, tool_material, vc_m_min, fz_ref_mm, ...}] (kernel/materials/cutting-data.ts)
  add column cutting_data jsonb not null default '[]' check (jsonb_typeof(cutting_data) = 'array');

-- Which version of each kernel data set the reference rows hold (db/seed): a digest of the
-- data, so a changed data set is written again on the next start and an unchanged one is not.
create table app_private.seed_versions (
  data_set text primary key,
  digest text not null,
  seeded_at timestamptz not null default now()
);

-------------------------------------------------------------------------------
-- Equipment libraries hold assemblies; holders and tools are the user's standalone libraries.
-- An assembly keeps full copies of its components (the spec's nested model, as tool makers
-- publish them); a component and a standalone holder or tool are the same item when they
-- share a uuid. add_to_library, sync_library and sync_assemblies keep the copies in step
-- (db/queries/equipment-sync.ts); the GIN index finds the assemblies that hold an item.

alter table app_public.equipment_libraries
  add column seq bigint generated always as identity unique;

create table app_public.library_assemblies (
  library_id uuid not null references app_public.equipment_libraries on delete cascade,
  -- client-supplied: the assembly's uuid
  id uuid not null,
  user_id uuid not null default app_public.current_user_id() references app_public.users on delete cascade,
  -- order within the library (the tool slot order a client shows)
  position integer not null,
  name text not null check (length(name) between 1 and 200),
  -- the assembly as the API shows it: {uuid, name, components: [...]} (kernel/tools/assembly.ts)
  body jsonb not null check (jsonb_typeof(body) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (library_id, id)
);
create index library_assemblies_user_idx on app_public.library_assemblies (user_id);
create index library_assemblies_components_idx on app_public.library_assemblies using gin ((body -> 'components') jsonb_path_ops);
alter table app_public.library_assemblies enable row level security;
create policy library_assemblies_own on app_public.library_assemblies for all
  using (user_id = app_public.current_user_id())
  with check (user_id = app_public.current_user_id()
    and exists (select 1 from app_public.equipment_libraries l where l.id = library_assemblies.library_id));
grant select, insert, update, delete on app_public.library_assemblies to :APP_USER;

create table app_public.holders (
  user_id uuid not null default app_public.current_user_id() references app_public.users on delete cascade,
  -- the holder's uuid, client-supplied or generated; unique per user
  id uuid not null default gen_random_uuid(),
  seq bigint generated always as identity unique,
  name text not null check (length(name) between 1 and 200),
  stacking_group text not null,
  manufacturer text,
  -- the holder as the API shows it (kernel/tools/holder.ts)
  body jsonb not null check (jsonb_typeof(body) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (user_id, id)
);
alter table app_public.holders enable row level security;
create policy holders_own on app_public.holders for all
  using (user_id = app_public.current_user_id())
  with check (user_id = app_public.current_user_id());
grant select, insert, update, delete on app_public.holders to :APP_USER;

create table app_public.tools (
  user_id uuid not null default app_public.current_user_id() references app_public.users on delete cascade,
  id uuid not null default gen_random_uuid(),
  seq bigint generated always as identity unique,
  name text not null check (length(name) between 1 and 200),
  tool_type text not null,
  diameter_mm double precision not null check (diameter_mm > 0),
  manufacturer text,
  -- the tool as the API shows it (kernel/tools/tool.ts)
  body jsonb not null check (jsonb_typeof(body) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (user_id, id)
);
create index tools_user_type_idx on app_public.tools (user_id, tool_type, diameter_mm);
alter table app_public.tools enable row level security;
create policy tools_own on app_public.tools for all
  using (user_id = app_public.current_user_id())
  with check (user_id = app_public.current_user_id());
grant select, insert, update, delete on app_public.tools to :APP_USER;

-------------------------------------------------------------------------------
-- The external tool catalogue: tool makers' ranges, readable by every user, written only by
-- the owner (the seed and `cli catalogue import`). Search is full text (words, prefixes)
-- plus trigrams (any substring of a name or article number), both indexed.

create extension if not exists pg_trgm with schema public;

create table app_public.catalogue_entries (
  manufacturer text not null check (length(manufacturer) between 1 and 100),
  article_number text not null check (length(article_number) between 1 and 100),
  name text not null check (length(name) between 1 and 300),
  tool_type text not null,
  diameter_mm double precision not null check (diameter_mm > 0),
  -- main dimensions in mm: flute_length_mm, overall_length_mm, shank_diameter_mm, ...
  dimensions jsonb not null default '{}' check (jsonb_typeof(dimensions) = 'object'),
  -- a full assembly library entry (holder and tool); POST it as an assembly with a fresh uuid
  assembly jsonb not null check (jsonb_typeof(assembly) = 'object'),
  -- 'standard' (the seeded range), 'import' (cli catalogue import), 'synthetic' (benchmarks)
  source text not null check (source in ('standard', 'import', 'synthetic')),
  search_text tsvector generated always as (
    to_tsvector('simple', manufacturer || ' ' || article_number || ' ' || name || ' ' || tool_type)) stored,
  created_at timestamptz not null default now(),
  primary key (manufacturer, article_number)
);
-- manufacturers are matched without regard to case (URLs, filters)
create index catalogue_manufacturer_idx on app_public.catalogue_entries (lower(manufacturer), tool_type, diameter_mm);
create index catalogue_type_diameter_idx on app_public.catalogue_entries (tool_type, diameter_mm);
create index catalogue_search_idx on app_public.catalogue_entries using gin (search_text);
create index catalogue_name_trgm_idx on app_public.catalogue_entries using gin (lower(name) public.gin_trgm_ops);
create index catalogue_article_trgm_idx on app_public.catalogue_entries using gin (lower(article_number) public.gin_trgm_ops);
alter table app_public.catalogue_entries enable row level security;
create policy catalogue_entries_read on app_public.catalogue_entries for select
  using (app_public.current_user_id() is not null);
grant select on app_public.catalogue_entries to :APP_USER;
