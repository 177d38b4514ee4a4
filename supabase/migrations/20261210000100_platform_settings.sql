-- Platform settings (ADR 065): the platform fee, whether sign-up is open, and maintenance mode, as
-- one typed row that admins edit on System Settings. Anyone may read it (the fee is on /pricing,
-- the maintenance notice on every page); only an admin may change it, and every change is written
-- to the audit log with who made it and what changed.
--   * The fee a sale is charged is the one in force when it was bought: each purchase records it
--     (purchases.platform_fee_percent, set by the database, never by the caller), and a seller's
--     earnings add up those.
--   * Closed sign-up is refused by the database too: the trigger that makes a new account's
--     profile raises `PT403`, whatever the way in (the Auth API, Google).
create table public.platform_settings (
  id uuid primary key default '00000000-0000-4000-8000-000000000001'
    constraint platform_settings_one_row check (id = '00000000-0000-4000-8000-000000000001'),
  platform_fee_percent numeric(4, 2) not null default 10
    constraint platform_settings_fee_range check (platform_fee_percent between 0 and 50),
  signups_open boolean not null default true,
  maintenance_mode boolean not null default false,
  maintenance_message text
    constraint platform_settings_message_length check (char_length(maintenance_message) <= 300),
  updated_at timestamptz not null default now(),
  updated_by uuid references public.users (id) on delete set null
);
insert into public.platform_settings default values;

alter table public.platform_settings enable row level security;
create policy "platform_settings: anyone reads" on public.platform_settings for select using (true);
create policy "platform_settings: admins update" on public.platform_settings for update to authenticated
  using (public.is_admin()) with check (public.is_admin());
select public.require_second_factor('public.platform_settings');
grant select on public.platform_settings to anon, authenticated;
grant update (platform_fee_percent, signups_open, maintenance_mode, maintenance_message)
  on public.platform_settings to authenticated;
grant select, update on public.platform_settings to service_role;

-- The audit log learns the settings' change.
alter table public.audit_log drop constraint audit_log_action_check;
alter table public.audit_log add constraint audit_log_action_check check (action in (
  'user.role_changed', 'user.banned', 'user.unbanned', 'agent.unpublished', 'agent.restored', 'review.removed',
  'settings.changed'
));
alter table public.audit_log drop constraint audit_log_target_type_check;
alter table public.audit_log add constraint audit_log_target_type_check
  check (target_type in ('user', 'agent', 'review', 'settings'));

-- Who and when, set by the database; the change itself (each setting that moved, before and
-- after) into the audit log.
create function public.platform_settings_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changes jsonb := '{}'::jsonb;
  before jsonb := to_jsonb(old) - 'updated_at' - 'updated_by';
  after jsonb := to_jsonb(new) - 'updated_at' - 'updated_by';
  setting text;
begin
  for setting in select jsonb_object_keys(after) loop
    if before -> setting is distinct from after -> setting then
      changes := changes || jsonb_build_object(setting, jsonb_build_object('from', before -> setting, 'to', after -> setting));
    end if;
  end loop;
  if changes = '{}'::jsonb then
    return null;
  end if;
  insert into public.audit_log (actor_id, action, target_type, target_id, details)
  values (auth.uid(), 'settings.changed', 'settings', new.id, changes);
  return null;
end
$$;

create function public.platform_settings_stamp()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  new.updated_by := auth.uid();
  return new;
end
$$;

create trigger platform_settings_stamp before update on public.platform_settings
  for each row execute function public.platform_settings_stamp();
create trigger platform_settings_audit after update on public.platform_settings
  for each row execute function public.platform_settings_changed();

-- ---------------------------------------------------------------------------------------------
-- The fee a sale is charged: the one in force when it was bought
-- ---------------------------------------------------------------------------------------------
alter table public.purchases add column platform_fee_percent numeric(4, 2) not null default 10
  constraint purchases_platform_fee_range check (platform_fee_percent between 0 and 50);

create function public.purchases_fee_in_force()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.platform_fee_percent := (select s.platform_fee_percent from public.platform_settings s);
  return new;
end
$$;
create trigger purchases_fee_in_force before insert on public.purchases
  for each row execute function public.purchases_fee_in_force();

-- As before (migration 20261127000200), each sale's fee at its own rate; the rate argument goes.
drop function public.seller_earnings(numeric, text);
create function public.seller_earnings(time_zone text default 'UTC')
returns table (
  scope text,
  agent_id uuid,
  agent_name text,
  month date,
  sales_count bigint,
  gross numeric,
  refund_count bigint,
  refunds numeric,
  fee numeric,
  net numeric
)
language sql
stable
security invoker
set search_path = ''
as $$
  with sales as (
    select
      p.agent_id,
      (date_trunc('month', p.created_at at time zone seller_earnings.time_zone))::date as month,
      p.amount,
      p.status,
      case when p.status = 'completed' then round(p.amount * p.platform_fee_percent / 100, 2) else 0 end as fee
    from public.purchases p
    where p.seller_id = (select auth.uid())
      and p.status in ('completed', 'refunded')
  )
  select
    case
      when grouping(s.agent_id) = 0 then 'agent'
      when grouping(s.month) = 0 then 'month'
      else 'total'
    end as scope,
    s.agent_id,
    min(a.name) as agent_name,
    s.month,
    count(s.amount) as sales_count,
    coalesce(sum(s.amount), 0) as gross,
    count(s.amount) filter (where s.status = 'refunded') as refund_count,
    coalesce(sum(s.amount) filter (where s.status = 'refunded'), 0) as refunds,
    coalesce(sum(s.fee), 0) as fee,
    coalesce(sum(s.amount) filter (where s.status = 'completed'), 0) - coalesce(sum(s.fee), 0) as net
  from sales s
  left join public.agents a on a.id = s.agent_id
  group by grouping sets ((s.agent_id), (s.month), ())
$$;
revoke execute on function public.seller_earnings(text) from public, anon;
grant execute on function public.seller_earnings(text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Sign-up closed: no new account, whatever the way in (SQLSTATE PT403; the embedded Auth API
-- answers it as a configuration with sign-up off: 422 signup_disabled)
-- ---------------------------------------------------------------------------------------------
create function public.refuse_signups_when_closed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not (select s.signups_open from public.platform_settings s) then
    raise exception 'Sign-up is closed' using errcode = 'PT403';
  end if;
  return new;
end
$$;
create trigger refuse_signups_when_closed before insert on auth.users
  for each row execute function public.refuse_signups_when_closed();
