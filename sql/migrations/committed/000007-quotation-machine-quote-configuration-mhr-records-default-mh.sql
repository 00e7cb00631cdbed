--! Previous: sha1:9c8bc97fc4c8da735e5f292c80defb93737a8b96
--! Hash: sha1:b0d8f4af2ba9984de186b8db7bd277db337472f6
--! Message: quotation: machine quote configuration, MHR records, default MHR and material surcharge

-- Quotation: the machine layer of the quote defaults (per user and machine: MHR, name,
-- setup-cost template, MHR record), a default MHR and a material surcharge in the settings,
-- and the surcharge on the quote job. docs/quote.md.

-- The per-user layer: a default MHR (null: the machine catalogue's default_mhr) and the
-- material surcharge in percent that new quote jobs take.
alter table app_public.quote_settings
  add column default_mhr numeric check (default_mhr >= 0),
  add column material_surcharge_percentage numeric not null default 0
    check (material_surcharge_percentage between 0 and 100);

alter table app_public.quote_jobs
  add column material_surcharge_percentage numeric not null default 0
    check (material_surcharge_percentage between 0 and 100);

-- New quote jobs take overhead, tax, discount, profit and the surcharge from the settings.
create or replace function app_private.tg_projects__create_quote_job() returns trigger
  language plpgsql
  set search_path = pg_catalog
as $$
begin
  insert into app_public.quote_jobs (project_id, user_id, overhead_percentage, tax, discount, profit, material_surcharge_percentage)
    select new.id, new.user_id, s.overhead_percentage, s.tax, s.discount, s.profit, s.material_surcharge_percentage
      from app_public.quote_settings s where s.user_id = new.user_id;
  if not found then
    raise exception 'user % has no quote settings', new.user_id;
  end if;
  return null;
end;
$$;

-- The machine layer, per user and machine. Absent row: nothing set (the catalogue's name,
-- no MHR of the user's, an empty setup-cost template).
create table app_public.machine_quote_configs (
  user_id uuid not null default app_public.current_user_id() references app_public.users on delete cascade,
  product_id text not null references app_public.machines on delete cascade,
  -- null: the catalogue's name
  name text check (length(name) between 1 and 200),
  -- the machine's MHR (EUR/h); null: falls through to the settings
  mhr_value numeric check (mhr_value >= 0),
  -- how mhr_value was set: by PATCH (manual) or by an MHR record (calculated)
  mhr_source text check (mhr_source in ('manual', 'calculated')),
  -- ordered [{name, value, unit}], addressed by zero-based index
  setup_costs jsonb not null default '[]' check (jsonb_typeof(setup_costs) = 'array'),
  -- the MHR record: the inputs used and what they gave; both or neither
  mhr_inputs jsonb check (jsonb_typeof(mhr_inputs) = 'object'),
  calculated_mhr numeric check (calculated_mhr >= 0),
  updated_at timestamptz not null default now(),
  primary key (user_id, product_id),
  check ((mhr_inputs is null) = (calculated_mhr is null)),
  check ((mhr_value is null) = (mhr_source is null))
);
alter table app_public.machine_quote_configs enable row level security;
-- own rows, for machines assigned to the user only
create policy machine_quote_configs_own on app_public.machine_quote_configs for all
  using (user_id = app_public.current_user_id())
  with check (user_id = app_public.current_user_id() and exists (
    select 1 from app_public.user_machines um
      where um.user_id = machine_quote_configs.user_id and um.product_id = machine_quote_configs.product_id));
grant select, insert, update, delete on app_public.machine_quote_configs to :APP_USER;
