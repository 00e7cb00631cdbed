--! Previous: sha1:48f09cf8f8183e230ad20432d311992a8df86680
--! Hash: sha1:a65694b2a0e9b58bffa5aec6502cbb1a78b64eb7
--! Message: The customer's quote document: shop details, customer, quantity breaks, quote numbers

-- The customer's quote document (docs/quote.md, "The customer's document"): the shop's details
-- and terms in the quote settings, the customer, quantity breaks and overrides on the quote job,
-- and a quote number per user.

alter table app_public.quote_settings
  add column shop_name text not null default '' check (length(shop_name) <= 200),
  add column shop_address text not null default '' check (length(shop_address) <= 1000),
  add column terms text not null default '' check (length(terms) <= 5000),
  add column validity_days integer not null default 30 check (validity_days between 1 and 365),
  add column delivery_days integer not null default 10 check (delivery_days between 1 and 365),
  -- the last quote number given: the next customer document without one takes this + 1. The
  -- row lock of the update that takes it makes two exports at once take distinct numbers.
  add column quote_number_last integer not null default 0 check (quote_number_last >= 0);

alter table app_public.quote_jobs
  add column customer_name text not null default '' check (length(customer_name) <= 200),
  add column customer_address text not null default '' check (length(customer_address) <= 1000),
  add column part_name text check (length(part_name) <= 200),
  -- increasing positive integers; empty: the quote job's quantity alone
  add column quantity_breaks integer[] not null default '{}' check (cardinality(quantity_breaks) <= 10),
  -- null: the document's date + the settings' validity_days
  add column valid_until date,
  add column delivery_days integer check (delivery_days between 1 and 365),
  -- given by the first customer document and kept: a re-export shows the same number
  add column quote_number text,
  add column quote_number_at timestamptz;

create unique index quote_jobs_user_quote_number_idx on app_public.quote_jobs (user_id, quote_number)
  where quote_number is not null;
