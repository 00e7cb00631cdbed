--! Previous: sha1:825587be0acfa49533789d4769686a396a474f5e
--! Hash: sha1:48f09cf8f8183e230ad20432d311992a8df86680
--! Message: cost model: setup, loading, operator, programming, tool wear, deburring and inspection layers

-- The shop's cost model (docs/quote.md, "Cost model"): setup rate and time per clamping,
-- loading, operator attendance, programming, tool wear by tool family, deburring and inspection,
-- one layer per table. Each is a JSON object of the values that layer sets (the API validates
-- them as non-negative numbers); a key left out falls through to the layer below.
alter table app_public.quote_settings
  add column cost_model jsonb not null default '{}' check (jsonb_typeof(cost_model) = 'object');
alter table app_public.machine_quote_configs
  add column cost_model jsonb not null default '{}' check (jsonb_typeof(cost_model) = 'object');
alter table app_public.quote_jobs
  add column cost_model jsonb not null default '{}' check (jsonb_typeof(cost_model) = 'object');
