-- One rule for how a seller is named: their display name where their privacy lets the viewer see
-- it, else their username (app/lib/sellers.ts sellerName). The storefront already read the
-- display name from public_profiles; the cards and the agent page read agents_with_stats, which
-- now carries it too (appended, so catalogue_agents, `setof agents_with_stats`, returns it).
-- So does user_purchase_history (My Purchases, My Collection, Contact Seller), and the purchase
-- history's search matches the seller's display name as well as their username.
-- public_profiles gives display_name only to viewers who may see the profile, so a members-only
-- or private seller is named by username to everyone else, as before.
create or replace view public.agents_with_stats with (security_invoker = true) as
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
  (case when s.review_count > 0 then s.avg_rating end)::numeric(3, 2) as avg_rating,
  s.review_count,
  s.purchase_count,
  s.last_version_at,
  p.visibility as seller_visibility,
  p.display_name as seller_display_name
from public.agents a
join public.agent_stats s on s.agent_id = a.id
left join public.public_profiles p on p.id = a.seller_id;

-- Same columns as migration 20261125000100, seller_display_name appended.
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
  sp.response_time_hours as seller_response_time_hours,
  sp.display_name as seller_display_name
from public.purchases pu
left join public.agents a on a.id = pu.agent_id
left join public.public_profiles sp on sp.id = pu.seller_id
left join public.reviews r on r.agent_id = pu.agent_id and r.buyer_id = pu.buyer_id
left join lateral (
  select count(*)::integer as download_count, max(dl.created_at) as last_downloaded_at
  from public.downloads dl
  where dl.purchase_id = pu.id
) d on true;

create or replace function public.purchase_history_matches(
  search text default null,
  purchase_status text default null,
  category text default null
)
returns table (id uuid, created_at timestamptz)
language sql
stable
as $$
  select p.id, p.created_at
  from public.purchases p
  where p.buyer_id = (select auth.uid())
    and (nullif(purchase_history_matches.purchase_status, '') is null
      or p.status = purchase_history_matches.purchase_status)
    and (nullif(purchase_history_matches.category, '') is null
      or exists (
        select 1 from public.agents a
        where a.id = p.agent_id and a.category = purchase_history_matches.category
      ))
    and (nullif(btrim(purchase_history_matches.search), '') is null
      or exists (
        select 1 from public.agents a
        where a.id = p.agent_id
          and (a.name ilike public.like_substring(purchase_history_matches.search)
            or a.description ilike public.like_substring(purchase_history_matches.search))
      )
      or exists (
        select 1 from public.public_profiles sp
        where sp.id = p.seller_id
          and (sp.username ilike public.like_substring(purchase_history_matches.search)
            or sp.display_name ilike public.like_substring(purchase_history_matches.search))
      ))
$$;
