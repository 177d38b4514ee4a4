-- One home for the catalogue's categories and for its filters (issue 10, ADR 011).
--
-- 1. public.categories holds the six categories: name (what agents store), slug (the URL value),
--    position (display order) and how they look (description, icon, colour). The app, the
--    agents' foreign key, category_counts and the benchmark's seeding all read this table.
-- 2. public.catalogue_agents(search, category, max_price, min_rating) is the one definition of
--    the marketplace filters. The page query calls it through the Data API (with select, order
--    and range) and category_counts counts its rows, so both always agree. NULL means "no
--    filter" for every argument.

-- ---------------------------------------------------------------------------------------------
-- Categories
-- ---------------------------------------------------------------------------------------------
create table public.categories (
  name text primary key constraint categories_name_format check (name = btrim(name) and name <> ''),
  -- The URL value (?category=…). Lowercase so that URL parsing can compare it case-insensitively.
  slug text not null constraint categories_slug_key unique
    constraint categories_slug_format check (slug = lower(btrim(slug)) and slug <> ''),
  position smallint not null,
  description text not null default '',
  -- Keys the app maps to an icon and a colour scheme (app/components/category-icon.tsx); an
  -- unknown key falls back to a neutral look, so a new category needs no code change.
  icon text not null default '',
  colour text not null default ''
);

alter table public.categories enable row level security;
create policy "categories: anyone reads" on public.categories for select to anon, authenticated using (true);
-- Written by migrations and the service role only.
revoke insert, update, delete, truncate on public.categories from anon, authenticated;

insert into public.categories (name, slug, position, description, icon, colour) values
  ('Marketing', 'marketing', 1,
   'Campaign planners, ad copywriters, SEO auditors and social schedulers.', 'megaphone', 'pink'),
  ('Data Analysis', 'data analysis', 2,
   'Agents that clean data, build dashboards, forecast and explain your numbers.', 'chart', 'blue'),
  ('Content Creation', 'content creation', 3,
   'Writers, editors, video scripters and image prompt designers.', 'pen', 'purple'),
  ('Sales', 'sales', 4,
   'Lead qualifiers, outreach sequencers, CRM assistants and deal coaches.', 'trending', 'green'),
  ('Customer Support', 'customer support', 5,
   'Help-desk responders, ticket triage, knowledge-base builders and chatbots.', 'headset', 'orange'),
  ('Finance', 'finance', 6,
   'Bookkeeping, invoicing, expense auditing and financial reporting agents.', 'wallet', 'teal');

-- agents.category: the CHECK with the six names becomes a foreign key to the table. Every existing
-- row satisfied the CHECK, so it satisfies the key. A renamed category follows into its agents;
-- a category with agents cannot be deleted.
alter table public.agents drop constraint agents_category_check;
alter table public.agents
  add constraint agents_category_fkey foreign key (category) references public.categories (name) on update cascade;

-- ---------------------------------------------------------------------------------------------
-- The marketplace filters
--
--   search      case-insensitive substring of the name, description or category; trimmed; %, _
--               and \ match themselves (no wildcards); NULL or blank = no search
--   category    a category's slug (the URL value); NULL = every category
--   max_price   price <= max_price; NULL = any price
--   min_rating  avg_rating >= min_rating (avg_rating is 0 without reviews); NULL = any rating
--
-- SECURITY INVOKER, no SET clause, one SELECT and STABLE: that is what lets Postgres inline the
-- function into the calling query, so the caller's ORDER BY and LIMIT reach the sort indexes of
-- migration …000400 and the row-level security of the caller applies as on the view. Every
-- name is schema-qualified, so the caller's search_path cannot change what it reads.
-- ---------------------------------------------------------------------------------------------
-- The LIKE pattern "contains `value`", with LIKE's wildcards and escape character taken literally.
create function public.like_substring(value text)
returns text
language sql
immutable
as $$
  select '%' || replace(replace(replace(btrim(value), '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;

create function public.catalogue_agents(
  search text default null,
  category text default null,
  max_price numeric default null,
  min_rating numeric default null
)
returns setof public.agents_with_stats
language sql
stable
as $$
  select s.*
  from public.agents_with_stats s
  where s.status = 'published'
    and (catalogue_agents.category is null
      or s.category = (select c.name from public.categories c where c.slug = catalogue_agents.category))
    and (max_price is null or s.price <= max_price)
    and (min_rating is null or s.avg_rating >= min_rating)
    and (nullif(btrim(search), '') is null
      or s.name ilike public.like_substring(search)
      or s.description ilike public.like_substring(search)
      or s.category ilike public.like_substring(search))
$$;

grant execute on function public.like_substring(text) to anon, authenticated, service_role;
grant execute on function public.catalogue_agents(text, text, numeric, numeric) to anon, authenticated, service_role;

-- category_counts: the same signature and answer as before (migration …000500), now counting the
-- rows of catalogue_agents (so it applies exactly the page query's search, price and rating
-- filters) over the categories table (so a new category appears with 0). Still SECURITY DEFINER
-- reading published agents only, as before: every visitor gets the same counts.
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
  select c.name as category, coalesce(m.agent_count, 0) as agent_count
  from public.categories c
  left join (
    select a.category, count(*) as agent_count
    from public.catalogue_agents(search => search, max_price => max_price, min_rating => min_rating) a
    group by a.category
  ) m on m.category = c.name
  order by c.position, c.name
$$;
