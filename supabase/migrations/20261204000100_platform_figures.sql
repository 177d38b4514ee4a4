-- The home page's figures, counted from what the marketplace lists (catalogue_agents: published
-- agents of sellers who are not banned): those agents, the sellers behind them, their completed
-- purchases, and the reviews of them with their average rating, to one decimal (NULL while none is
-- reviewed, as an agent's own rating). Public figures, read with the caller's rights: anyone may
-- call it, and it counts only rows the catalogue shows everyone.
create or replace function public.platform_figures()
returns table (agent_count bigint, seller_count bigint, purchase_count bigint, review_count bigint, avg_rating numeric)
language sql
stable
set search_path = ''
as $$
  with catalogue as (select c.id, c.seller_id, c.purchase_count from public.catalogue_agents() c)
  select
    (select count(*) from catalogue),
    (select count(distinct seller_id) from catalogue),
    (select coalesce(sum(purchase_count), 0)::bigint from catalogue),
    (select count(*) from public.reviews r where r.agent_id in (select id from catalogue)),
    (select round(avg(r.rating), 1) from public.reviews r where r.agent_id in (select id from catalogue))
$$;

revoke execute on function public.platform_figures() from public;
grant execute on function public.platform_figures() to anon, authenticated, service_role;
