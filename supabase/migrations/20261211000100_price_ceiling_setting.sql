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
