-- Buying and collecting: what a purchase records (list price, tier discount, amount paid, the
-- payment provider, an idempotency key, the reason of a refund or failure), the rules of a new sale
-- and of status changes (enforced here, whatever code writes), versioned agent packages in a
-- private Storage bucket, downloads per purchase and version, seller presence and stated response
-- time, and the purchase-history read with its filters. docs/decisions/014-checkout-and-payments.md.

-- ---------------------------------------------------------------------------------------------
-- purchases: the price paid and how it was reached
-- ---------------------------------------------------------------------------------------------
alter table public.purchases
  add column list_price numeric(10, 2),
  add column discount_percent integer not null default 0
    constraint purchases_discount_percent_check check (discount_percent between 0 and 100),
  add column discount_amount numeric(10, 2) not null default 0
    constraint purchases_discount_amount_check check (discount_amount >= 0),
  add column payment_provider text not null default 'test'
    constraint purchases_payment_provider_check check (payment_provider ~ '^[a-z][a-z0-9_]{0,30}$'),
  add column idempotency_key uuid,
  add column status_reason text constraint purchases_status_reason_length check (char_length(status_reason) <= 500),
  add column refunded_at timestamptz,
  add column refunded_by uuid references public.users (id) on delete set null;

-- Purchases made before discounts existed were paid at list price.
update public.purchases set list_price = amount where list_price is null;
alter table public.purchases
  alter column list_price set not null,
  add constraint purchases_list_price_check check (list_price >= 0),
  add constraint purchases_amount_is_list_minus_discount check (amount = list_price - discount_amount);

-- One live purchase (pending or completed) per buyer and agent: a double submit, a replayed form
-- or concurrent requests cannot buy an agent twice. Failed and refunded purchases may repeat.
drop index if exists public.purchases_one_completed_per_buyer_agent;
create unique index purchases_one_live_per_buyer_agent on public.purchases (buyer_id, agent_id)
  where status in ('pending', 'completed');
-- The same form submitted twice is the same purchase.
create unique index purchases_buyer_idempotency_key on public.purchases (buyer_id, idempotency_key)
  where idempotency_key is not null;
create index purchases_payment_intent_id_idx on public.purchases (payment_intent_id) where payment_intent_id is not null;

-- The rules of a sale, for the roles the app and the API use (the seed, run as the owner, writes
-- history: purchases of agents archived since). A new purchase is of a published agent by someone
-- other than its seller, at the agent's current price less a discount of at most that price; a
-- status moves only pending → completed | failed and completed → refunded.
-- Security invoker on purpose: current_user is the writing role (a definer would see its owner).
create or replace function public.guard_purchase()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  agent record;
begin
  if current_user not in ('anon', 'authenticated', 'service_role') then
    return new;
  end if;
  if tg_op = 'INSERT' then
    select a.price, a.status, a.seller_id into agent from public.agents a where a.id = new.agent_id;
    if agent.status is distinct from 'published' then
      raise exception 'This agent is not on sale' using errcode = 'PT409', hint = 'agent_not_published';
    end if;
    if agent.seller_id = new.buyer_id then
      raise exception 'A seller cannot buy their own agent' using errcode = 'PT409', hint = 'own_agent';
    end if;
    if new.list_price <> agent.price then
      raise exception 'The list price must be the agent''s current price' using errcode = '22023';
    end if;
    if new.status not in ('pending', 'completed', 'failed') then
      raise exception 'A purchase starts pending, completed or failed' using errcode = '22023';
    end if;
    new.seller_id := agent.seller_id;
    new.refunded_at := null;
    new.refunded_by := null;
    return new;
  end if;

  -- UPDATE: the money and the parties never change; only the status moves forward.
  if (new.buyer_id, new.agent_id, new.seller_id, new.list_price, new.discount_percent, new.discount_amount,
      new.amount, new.payment_provider, new.idempotency_key, new.created_at)
     is distinct from
     (old.buyer_id, old.agent_id, old.seller_id, old.list_price, old.discount_percent, old.discount_amount,
      old.amount, old.payment_provider, old.idempotency_key, old.created_at) then
    raise exception 'A purchase''s parties and amounts cannot change' using errcode = '22023';
  end if;
  if new.status is distinct from old.status and not (
    (old.status = 'pending' and new.status in ('completed', 'failed'))
    or (old.status = 'completed' and new.status = 'refunded')
  ) then
    raise exception 'A % purchase cannot become %', old.status, new.status
      using errcode = 'PT409', hint = 'invalid_status_change';
  end if;
  if new.status = 'refunded' and old.status = 'completed' then
    new.refunded_at := coalesce(new.refunded_at, now());
  end if;
  return new;
end
$$;

create trigger purchases_guard before insert or update on public.purchases
  for each row execute function public.guard_purchase();
revoke execute on function public.guard_purchase() from public, anon, authenticated;

-- Notifications received from a payment provider, by the provider's event id: a notification
-- delivered twice is applied once. Written and read by the server only (service role).
create table public.payment_events (
  id text primary key constraint payment_events_id_length check (char_length(id) between 1 and 255),
  provider text not null,
  purchase_id uuid references public.purchases (id) on delete set null,
  type text not null,
  received_at timestamptz not null default now()
);
alter table public.payment_events enable row level security;
revoke all on public.payment_events from anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- agent_versions: every package an agent has shipped (replaces agent_packages, which held one).
-- Buyers download the latest and may download earlier ones; the files live in the private
-- Storage bucket 'agent-packages', served only by the app's download route.
-- ---------------------------------------------------------------------------------------------
create table public.agent_versions (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references public.agents (id) on delete cascade,
  version text not null constraint agent_versions_version_format check (version ~ '^[0-9]{1,4}(\.[0-9]{1,4}){1,2}$'),
  release_notes text not null default ''
    constraint agent_versions_release_notes_length check (char_length(release_notes) <= 5000),
  file_path text not null constraint agent_versions_file_path_length check (char_length(file_path) between 1 and 500),
  file_name text not null constraint agent_versions_file_name_length check (char_length(file_name) between 1 and 200),
  content_type text not null
    constraint agent_versions_content_type_check check (content_type in ('application/json', 'application/zip')),
  file_size bigint not null constraint agent_versions_file_size_check check (file_size between 0 and 10485760),
  created_at timestamptz not null default now(),
  constraint agent_versions_agent_id_version_key unique (agent_id, version)
);
create index agent_versions_agent_id_created_at_idx on public.agent_versions (agent_id, created_at desc);

insert into public.agent_versions (agent_id, version, file_path, file_name, content_type, file_size, created_at)
select
  p.agent_id, '1.0.0', p.file_path,
  coalesce(nullif(p.file_name, ''), 'package' || case when p.file_path ilike '%.zip' then '.zip' else '.json' end),
  case when p.file_path ilike '%.zip' then 'application/zip' else 'application/json' end,
  coalesce(p.file_size, 0), p.created_at
from public.agent_packages p;
drop table public.agent_packages;

alter table public.agent_versions enable row level security;
revoke update, delete, truncate on public.agent_versions from anon, authenticated;
revoke insert on public.agent_versions from anon;
create policy "agent_versions: seller, admin or buyer reads" on public.agent_versions
  for select to authenticated using (
    exists (select 1 from public.agents a where a.id = agent_versions.agent_id and a.seller_id = (select auth.uid()))
    or exists (
      select 1 from public.purchases p
      where p.agent_id = agent_versions.agent_id and p.buyer_id = (select auth.uid()) and p.status = 'completed'
    )
    or (select public.is_admin())
  );
create policy "agent_versions: seller adds to own agent" on public.agent_versions
  for insert to authenticated with check (
    exists (select 1 from public.agents a where a.id = agent_versions.agent_id and a.seller_id = (select auth.uid()))
  );

-- The bucket of package files: private, JSON or ZIP, 10 MB. No storage.objects policy lets an API
-- role read it; the download route checks the purchase and reads it as the service role.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('agent-packages', 'agent-packages', false, 10485760, array['application/json', 'application/zip'])
on conflict (id) do nothing;

-- ---------------------------------------------------------------------------------------------
-- downloads: which version, and at most one purchase per row
-- ---------------------------------------------------------------------------------------------
alter table public.downloads add column version_id uuid references public.agent_versions (id) on delete set null;
create index downloads_version_id_idx on public.downloads (version_id) where version_id is not null;

-- ---------------------------------------------------------------------------------------------
-- Seller presence and stated response time
-- ---------------------------------------------------------------------------------------------
alter table public.users
  add column response_time_hours integer
    constraint users_response_time_hours_check check (response_time_hours between 1 and 168);

-- When each user was last active, written by the app through touch_presence(); nobody reads the
-- exact time through the API, only whether someone is online (public_profiles.is_online).
create table public.user_presence (
  user_id uuid primary key references public.users (id) on delete cascade,
  last_active_at timestamptz not null default now()
);
alter table public.user_presence enable row level security;
revoke all on public.user_presence from anon, authenticated;

-- Marks the caller active now (at most one write a minute).
create or replace function public.touch_presence()
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  insert into public.user_presence as p (user_id, last_active_at)
  select auth.uid(), now() where auth.uid() is not null
  on conflict (user_id) do update set last_active_at = excluded.last_active_at
    where p.last_active_at < now() - interval '1 minute'
$$;
revoke execute on function public.touch_presence() from public, anon;
grant execute on function public.touch_presence() to authenticated, service_role;

-- public_profiles gains whether the user was active in the last 15 minutes and their stated
-- response time (new columns at the end; the rest as before).
create or replace view public.public_profiles as
select
  u.id,
  u.username,
  u.profile_image_url,
  u.user_type,
  u.created_at,
  case when v.visible then u.first_name end as first_name,
  case when v.visible then u.last_name end as last_name,
  case when v.visible then u.bio end as bio,
  case when v.visible then u.website end as website,
  case when v.visible then u.location end as location,
  case when v.visible and (s.show_email or u.id = auth.uid()) then u.email end as email,
  case when v.visible and (s.show_phone or u.id = auth.uid()) then u.phone end as phone,
  coalesce(pr.last_active_at > now() - interval '15 minutes', false) as is_online,
  u.response_time_hours
from public.users u
left join public.user_settings s on s.user_id = u.id
left join public.user_presence pr on pr.user_id = u.id
cross join lateral (
  select
    u.id = auth.uid()
    or coalesce(s.profile_visibility, 'public') = 'public'
    or (s.profile_visibility = 'members' and auth.uid() is not null) as visible
) v;

-- ---------------------------------------------------------------------------------------------
-- user_purchase_history: the new purchase columns, the download figures and the seller's presence
-- ---------------------------------------------------------------------------------------------
create or replace view public.user_purchase_history with (security_invoker = true) as
select
  pu.id,
  pu.buyer_id,
  pu.agent_id,
  pu.seller_id,
  pu.amount,
  pu.status,
  pu.payment_intent_id,
  pu.created_at,
  pu.updated_at,
  a.name as agent_name,
  a.description as agent_description,
  a.thumbnail_url as agent_thumbnail,
  a.category as agent_category,
  sp.username as seller_username,
  r.rating as user_rating,
  r.review_text as user_review,
  pu.list_price,
  pu.discount_percent,
  pu.discount_amount,
  pu.payment_provider,
  pu.status_reason,
  pu.refunded_at,
  coalesce(d.download_count, 0) as download_count,
  d.last_downloaded_at,
  coalesce(sp.is_online, false) as seller_is_online,
  sp.response_time_hours as seller_response_time_hours
from public.purchases pu
left join public.agents a on a.id = pu.agent_id
left join public.public_profiles sp on sp.id = pu.seller_id
left join public.reviews r on r.agent_id = pu.agent_id and r.buyer_id = pu.buyer_id
left join lateral (
  select count(*)::integer as download_count, max(dl.created_at) as last_downloaded_at
  from public.downloads dl
  where dl.purchase_id = pu.id
) d on true;

revoke insert, update, delete, truncate on public.user_purchase_history from anon, authenticated;

-- The caller's purchase history under the page's filters, newest first (search: agent name,
-- description or seller; NULL or '' = no filter). RLS of the purchases applies (security invoker).
create function public.purchase_history(
  search text default null,
  purchase_status text default null,
  category text default null
)
returns setof public.user_purchase_history
language sql
stable
set search_path = ''
as $$
  select h.*
  from public.user_purchase_history h
  where h.buyer_id = (select auth.uid())
    and (nullif(purchase_status, '') is null or h.status = purchase_status)
    and (nullif(category, '') is null or h.agent_category = category)
    and (nullif(btrim(search), '') is null
      or h.agent_name ilike public.like_substring(search)
      or h.agent_description ilike public.like_substring(search)
      or h.seller_username ilike public.like_substring(search))
  order by h.created_at desc, h.id desc
$$;
revoke execute on function public.purchase_history(text, text, text) from public, anon;
grant execute on function public.purchase_history(text, text, text) to authenticated, service_role;
