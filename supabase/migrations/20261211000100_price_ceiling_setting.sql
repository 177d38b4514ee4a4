-- The price ceiling becomes a platform setting (ADR 065): `platform_settings.max_agent_price`, 300
-- as before, from $1 to $99,999.99, edited on System Settings and audited like the others. The
-- database checks it on every write of a price (it was CHECK (price <= 300)); an agent priced
-- above a ceiling lowered later keeps its price until the price itself is changed.
alter table public.platform_settings add column max_agent_price numeric(7, 2) not null default 300
  constraint platform_settings_price_range check (max_agent_price between 1 and 99999.99);
grant update (max_agent_price) on public.platform_settings to authenticated;

alter table public.agents drop constraint agents_price_ceiling;

create function public.agents_within_price_ceiling()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  ceiling numeric := (select s.max_agent_price from public.platform_settings s);
begin
  if new.price > ceiling and (tg_op = 'INSERT' or new.price is distinct from old.price) then
    raise exception 'The price can be at most %', ceiling
      using errcode = '23514', constraint = 'agents_price_ceiling';
  end if;
  return new;
end
$$;
create trigger agents_within_price_ceiling before insert or update of price on public.agents
  for each row execute function public.agents_within_price_ceiling();

-- Who changed the settings last is stamped only when a setting changed (a save that changed
-- nothing wrote no audit entry, and should not name its author either), and it is not public:
-- an anonymous reader gets the settings, not the last admin's id. (Signed-in roles keep the whole
-- row: an admin's save reads back what it wrote.)
create or replace function public.platform_settings_stamp()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (to_jsonb(new) - 'updated_at' - 'updated_by') is distinct from (to_jsonb(old) - 'updated_at' - 'updated_by') then
    new.updated_at := now();
    new.updated_by := auth.uid();
  else
    new.updated_at := old.updated_at;
    new.updated_by := old.updated_by;
  end if;
  return new;
end
$$;

revoke select on public.platform_settings from anon;
grant select (
  id, platform_fee_percent, max_agent_price, signups_open, maintenance_mode, maintenance_message, updated_at
) on public.platform_settings to anon;

-- The fee a purchase was charged stays what it was (only the service role updates purchases; this
-- keeps it so whoever does).
create function public.purchases_fee_kept()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.platform_fee_percent := old.platform_fee_percent;
  return new;
end
$$;
create trigger purchases_fee_kept before update of platform_fee_percent on public.purchases
  for each row execute function public.purchases_fee_kept();
