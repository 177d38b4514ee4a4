-- Indexes for every marketplace sort, so that a page of 24 is read in index order and
-- stops after 24 rows instead of joining and sorting every published agent. Measured with
-- 10,000 published agents: see docs/database.md "Catalogue queries".

-- Price, both ways, with the id tie-break the marketplace orders by.
drop index if exists public.agents_status_price_idx;
create index agents_status_price_id_idx on public.agents (status, price, id);
create index agents_status_price_desc_id_idx on public.agents (status, price desc, id);

-- Most popular and highest rated come from agent_stats.
create index agent_stats_purchase_count_idx on public.agent_stats (purchase_count desc, agent_id);
create index agent_stats_avg_rating_idx on public.agent_stats (avg_rating desc, agent_id);

-- agents_with_stats: every agent has its agent_stats row (created by the insert trigger in the
-- same statement), so the join is inner and the aggregates are the table's own columns, which
-- lets the planner walk the indexes above in sort order. Same columns, names and types as before.
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
  s.avg_rating,
  s.review_count,
  s.purchase_count
from public.agents a
join public.agent_stats s on s.agent_id = a.id
left join public.public_profiles p on p.id = a.seller_id;
