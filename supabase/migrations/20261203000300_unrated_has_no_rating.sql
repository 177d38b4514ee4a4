-- An agent nobody has rated has no rating: agents_with_stats (and catalogue_agents, which returns
-- its rows) gives avg_rating NULL while review_count is 0, where it gave 0 (read as five stars by
-- a page that defaulted). This is the one definition every page reads: the minimum-rating filter
-- already left such an agent out, the "Highest rated" sort puts it last (NULLS LAST), and the
-- pages say "No reviews yet". agent_stats keeps its 0 for its index; only the view says NULL.
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
  p.visibility as seller_visibility
from public.agents a
join public.agent_stats s on s.agent_id = a.id
left join public.public_profiles p on p.id = a.seller_id;
