--! Previous: sha1:c548bac51c89fa0954d77a4f475ac08f7d18e415
--! Hash: sha1:41087f2c678dd1fd99e892c1f46e3ad94a0f359d
--! Message: workpiece meshes

-- A workpiece's mesh and thumbnail are derived from its B-rep (or, for STL, from the file
-- itself): a job file may come without them (GET /projects/{id}/job?mesh=false), and the
-- tessellate task makes them again, for such an import or when an operator re-meshes a part
-- at another deflection. So they may be missing for a while, the two together, and they are
-- the one thing about a workpiece that may change after it was stored.

alter table app_public.workpieces
  alter column mesh_blob_id drop not null,
  alter column thumbnail_blob_id drop not null,
  add constraint workpieces_mesh_with_thumbnail check ((mesh_blob_id is null) = (thumbnail_blob_id is null)),
  -- the chordal and angular deflection the mesh was made with; null: the ingest default
  add column mesh_linear_deflection_mm double precision check (mesh_linear_deflection_mm > 0),
  add column mesh_angular_deflection_rad double precision check (mesh_angular_deflection_rad > 0);

-- a replaced mesh must be the owner's, of the right kind, like an inserted one
drop trigger _100_check_blobs on app_public.workpieces;
create trigger _100_check_blobs
  before insert or update of original_blob_id, brep_blob_id, mesh_blob_id, thumbnail_blob_id on app_public.workpieces
  for each row execute function app_private.tg_workpieces__check_blobs();
grant insert (mesh_linear_deflection_mm, mesh_angular_deflection_rad) on app_public.workpieces to :APP_USER;
