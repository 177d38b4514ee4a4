-- Read models for the app (views) and RPC functions. See docs/database.md.

-- ---------------------------------------------------------------------------------------------
-- public_profiles: what anyone may see of a user. Deliberately NOT security_invoker: RLS on
-- public.users is per row and hides other people's rows entirely, so this view (owned by the
-- migration role, which bypasses RLS) exposes only these columns, honouring user_settings:
--   always: id, username, profile_image_url, user_type, created_at
--   when the profile is visible (public; members → any signed-in viewer; private → only self):
--     first_name, last_name, bio, website, location
--   additionally when show_email / show_phone: email / phone
-- ---------------------------------------------------------------------------------------------
create view public.public_profiles as
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
  case when v.visible and (s.show_phone or u.id = auth.uid()) then u.phone end as phone
from public.users u
left join public.user_settings s on s.user_id = u.id
cross join lateral (
  select
    u.id = auth.uid()
    or coalesce(s.profile_visibility, 'public') = 'public'
    or (s.profile_visibility = 'members' and auth.uid() is not null) as visible
) v;

revoke insert, update, delete, truncate on public.public_profiles from anon, authenticated;
grant select on public.public_profiles to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- agents_with_stats: the Agent of docs/product.md. RLS of public.agents applies (security_invoker), so anon
-- sees published agents only; seller name/avatar come from public_profiles and the aggregates
-- from agent_stats, both readable by anyone.
-- avg_rating: numeric, mean rating rounded to 2 decimals; 0 when the agent has no reviews
-- (review_count = 0 tells "no reviews yet" apart from a real rating).
-- ---------------------------------------------------------------------------------------------
create view public.agents_with_stats with (security_invoker = true) as
select
  a.id,
  a.name,
  a.description,
  a.price,
  a.category,
  a.thumbnail_url,
  a.images,
  a.features,
  a.seller_id,
  a.status,
  a.created_at,
  a.updated_at,
  p.username as seller_username,
  p.profile_image_url as seller_avatar,
  coalesce(s.avg_rating, 0)::numeric(3, 2) as avg_rating,
  coalesce(s.review_count, 0) as review_count,
  coalesce(s.purchase_count, 0) as purchase_count
from public.agents a
left join public.public_profiles p on p.id = a.seller_id
left join public.agent_stats s on s.agent_id = a.id;

revoke insert, update, delete, truncate on public.agents_with_stats from anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- user_purchase_history: the Purchase of docs/product.md. RLS of public.purchases applies: a buyer sees own
-- purchases, a seller also their sales (filter buyer_id = me), admins all.
-- user_rating / user_review: the buyer's review of that agent, NULL when not reviewed.
-- ---------------------------------------------------------------------------------------------
create view public.user_purchase_history with (security_invoker = true) as
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
  r.review_text as user_review
from public.purchases pu
left join public.agents a on a.id = pu.agent_id
left join public.public_profiles sp on sp.id = pu.seller_id
left join public.reviews r on r.agent_id = pu.agent_id and r.buyer_id = pu.buyer_id;

revoke insert, update, delete, truncate on public.user_purchase_history from anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- RPCs
-- ---------------------------------------------------------------------------------------------

-- True when nobody else uses this username (case-insensitive) and it is 3–30 characters long.
-- The caller's own current username counts as available.
create or replace function public.is_username_available(name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select char_length(btrim(coalesce(name, ''))) between 3 and 30
    and not exists (
      select 1 from public.users u
      where lower(u.username) = lower(btrim(name))
        and u.id is distinct from auth.uid()
    )
$$;

-- Published agents per category under the marketplace filters: search matches name,
-- description or category case-insensitively; max_price inclusive; min_rating against avg_rating.
-- Returns every category of the six, with 0 when nothing matches. Reads published agents only.
create or replace function public.category_counts(
  search text default null,
  max_price numeric default null,
  min_rating numeric default null
)
returns table (category text, agent_count bigint)
language sql
stable
security definer
set search_path = ''
as $$
  with pattern as (
    select '%' || replace(replace(replace(btrim(search), '\', '\\'), '%', '\%'), '_', '\_') || '%' as value
    where nullif(btrim(search), '') is not null
  ),
  categories(category, position) as (
    values ('Marketing', 1), ('Data Analysis', 2), ('Content Creation', 3),
           ('Sales', 4), ('Customer Support', 5), ('Finance', 6)
  )
  select c.category, count(a.id) as agent_count
  from categories c
  left join public.agents a
    on a.category = c.category
   and a.status = 'published'
   and (max_price is null or a.price <= max_price)
   and (
     min_rating is null or min_rating <= 0
     or exists (select 1 from public.agent_stats s where s.agent_id = a.id and s.avg_rating >= min_rating)
   )
   and (
     not exists (select 1 from pattern)
     or a.name ilike (select value from pattern)
     or a.description ilike (select value from pattern)
     or a.category ilike (select value from pattern)
   )
  group by c.category, c.position
  order by c.position
$$;

grant execute on function public.is_username_available(text) to anon, authenticated, service_role;
grant execute on function public.category_counts(text, numeric, numeric) to anon, authenticated, service_role;
grant execute on function public.is_admin() to anon, authenticated, service_role;
grant execute on function public.is_seller() to anon, authenticated, service_role;
