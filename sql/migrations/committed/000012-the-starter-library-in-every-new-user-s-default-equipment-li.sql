--! Previous: sha1:834e616086ece7de2cb972a1ae57a7251c4b87be
--! Hash: sha1:085aee1155dfd076fa20731727cff229801b2626
--! Message: The starter library in every new user's default equipment library

-------------------------------------------------------------------------------
-- The starter library (kernel/tools/catalogue/starter-library.ts): a job shop's everyday tools
-- in their holders, which every new user's default equipment library holds and `cli library
-- add-starter` adds to a library. The seed writes it after every migration run (db/seed, data
-- set starter.library); `position` is the slot order, `body` the assembly with its catalogue ids.

create table app_private.starter_assemblies (
  position integer primary key,
  -- the assembly's id in the catalogue: a user's copy is named by it (starter_assembly_id)
  catalogue_id uuid not null unique,
  name text not null,
  body jsonb not null check (jsonb_typeof(body) = 'object'),
  -- its holders and tool (starter_items)
  item_ids uuid[] not null
);

-- The holders and tools of the starter assemblies, once each, as a user's holders and tools
-- store them (the catalogue's ids: one holder model is one item however many assemblies hold it).
create table app_private.starter_items (
  id uuid primary key,
  kind text not null check (kind in ('holder', 'tool')),
  body jsonb not null check (jsonb_typeof(body) = 'object')
);

-- The id a starter assembly has in a user's libraries: named by the user and the assembly's
-- catalogue id (a version 8 UUID of SHA-256, RFC 9562), so every user's ids are their own and
-- adding the set again finds what is there. Holders and tools keep their catalogue ids: one
-- holder model is one item of the user's, however many assemblies hold it. One expression with
-- no settings of its own, so that the planner inlines it (a call per row cost more than the
-- rest of a user's creation).
create function app_private.starter_assembly_id(p_user_id uuid, p_catalogue_id uuid) returns uuid
  language sql immutable strict parallel safe
as $$
  select overlay(overlay(pg_catalog.left(
           pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to('swarf.starter' || pg_catalog.chr(10) || p_user_id::text || pg_catalog.chr(10) || p_catalogue_id::text, 'UTF8')), 'hex'),
           32) placing '8' from 13 for 1) placing '8' from 17 for 1)::uuid
$$;

-- Adds to the library the starter assemblies it lacks, after its last slot, and their holders
-- and tools that the user lacks to the user's holders and tools (what add_to_library does,
-- except that an item the user has, perhaps edited, is left as it is). A starter assembly the
-- library still holds but without a cutting tool (its tool was deleted) gets its starter content
-- back; any other is left as it is. Returns the assemblies added or restored, in slot order: none
-- when the library has them all (or there is no such library). One statement.
create function app_private.add_starter_assemblies(p_library_id uuid)
  returns table (id uuid, name text)
  language sql volatile
  set search_path = pg_catalog
as $$
  -- appends serialise on the library row, as the API's assembly appends do
  with library as (
    select l.id, l.user_id,
           (select coalesce(max(a.position) + 1, 0) from app_public.library_assemblies a where a.library_id = l.id) as first
      from app_public.equipment_libraries l
     where l.id = p_library_id
       for no key update
  ), starter as (
    select l.id as library_id, l.user_id, l.first + s.position as position, s.name, s.body, s.item_ids,
           app_private.starter_assembly_id(l.user_id, s.catalogue_id) as id
      from library l, app_private.starter_assemblies s
  ), written as (
    insert into app_public.library_assemblies as a (library_id, id, user_id, position, name, body)
    select s.library_id, s.id, s.user_id, s.position, s.name, jsonb_set(s.body, '{uuid}', to_jsonb(s.id::text))
      from starter s
    on conflict (library_id, id) do update set name = excluded.name, body = excluded.body, updated_at = now()
      where not (a.body -> 'components' @> '[{"component_type": "parametric_cutting_tool"}]')
    returning a.id, a.name, a.position
  ), items as (
    select i.kind, i.body
      from app_private.starter_items i
     where i.id in (select unnest(s.item_ids) from written w join starter s on s.id = w.id)
  ), holders as (
    insert into app_public.holders (user_id, id, name, stacking_group, manufacturer, body)
    select l.user_id, (i.body ->> 'uuid')::uuid, i.body ->> 'name', i.body ->> 'stacking_group', i.body ->> 'manufacturer', i.body
      from items i, library l
     where i.kind = 'holder'
    on conflict (user_id, id) do nothing
  ), tools as (
    insert into app_public.tools (user_id, id, name, tool_type, diameter_mm, manufacturer, body)
    select l.user_id, (i.body ->> 'uuid')::uuid, i.body ->> 'name', i.body ->> 'tool_type',
           (i.body -> 'tool_parameters' ->> 'CuttingDiameter')::double precision, i.body ->> 'manufacturer', i.body
      from items i, library l
     where i.kind = 'tool'
    on conflict (user_id, id) do nothing
  ), touched as (
    update app_public.equipment_libraries l set updated_at = now()
     where l.id = p_library_id and exists (select 1 from written)
  )
  select w.id, w.name from written w order by w.position
$$;

-- New users: as before (machines, a default equipment library, quote settings), and the default
-- library holds the starter assemblies unless p_starter_library is false (`cli user create
-- --empty-library`).
drop function app_private.create_user(text);
create function app_private.create_user(p_email text, p_starter_library boolean default true) returns app_public.users
  language plpgsql volatile
  set search_path = pg_catalog
as $$
declare
  v_user app_public.users;
  v_library_id uuid;
begin
  insert into app_public.users (email) values (p_email) returning * into v_user;
  insert into app_public.user_machines (user_id, product_id, position)
    select v_user.id, m.product_id, row_number() over (order by m.listing_order, m.product_id)
      from app_public.machines m;
  insert into app_public.equipment_libraries (user_id, name, description, is_default)
    values (v_user.id, 'Default library', 'Created with the account', true)
    returning id into v_library_id;
  if p_starter_library then
    perform app_private.add_starter_assemblies(v_library_id);
  end if;
  insert into app_public.quote_settings (user_id) values (v_user.id);
  return v_user;
end;
$$;
