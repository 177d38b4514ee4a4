-- One home for the catalogue's categories and for its filters (ADR 011).
--
-- 1. public.categories holds the six categories: name (what agents store), slug (the URL value),
--    position (display order) and how they look (description, icon, colour). The app, the
--    agents' foreign key, category_counts and the benchmark's seeding all read this table.
-- 2. public.matches_catalogue_filters is the one definition of the marketplace filters (search,
--    category, max price, min rating; NULL = no filter). public.catalogue_agents applies it for
--    the page query (called through the Data API with select, order and range) and
--    category_counts applies it for the counts, so both always agree.

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
--   category    a category's name; NULL = every category
--   max_price   price <= max_price; NULL = any price
--   min_rating  avg_rating >= min_rating (avg_rating is 0 without reviews); NULL = any rating
--
-- Every function below is LANGUAGE sql, one SELECT, not SECURITY DEFINER and without a SET clause:
-- that is what lets Postgres inline them into the calling query. Called with constants (the Data
-- API binds GET arguments as typed parameters), Postgres then drops the conditions of absent
-- filters, reads the sort indexes of migration …000400 for a page, and leaves agent_stats out
-- of the counts when no rating filter is set. Row-level security of the caller applies. Every
-- name is schema-qualified, so the caller's search_path cannot change what they read.
-- ---------------------------------------------------------------------------------------------

-- The LIKE pattern "contains `value`", with LIKE's wildcards and escape character taken literally.
create function public.like_substring(value text)
returns text
language sql
immutable
as $$
  select '%' || replace(replace(replace(btrim(value), '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;

-- Whether an agent (its columns) passes the filters: the one definition.
create function public.matches_catalogue_filters(
  agent_name text,
  agent_description text,
  agent_category text,
  agent_price numeric,
  agent_avg_rating numeric,
  search text,
  category text,
  max_price numeric,
  min_rating numeric
)
returns boolean
language sql
immutable
as $$
  select (category is null or agent_category = category)
    and (max_price is null or agent_price <= max_price)
    and (min_rating is null or agent_avg_rating >= min_rating)
    and (nullif(btrim(search), '') is null
      or agent_name ilike public.like_substring(search)
      or agent_description ilike public.like_substring(search)
      or agent_category ilike public.like_substring(search))
$$;

-- The published agents that pass the filters, as agents_with_stats rows: the marketplace page
-- orders and pages them through the Data API.
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
    and public.matches_catalogue_filters(
      s.name, s.description, s.category, s.price, s.avg_rating,
      -- Qualified: inside this query `category` alone would be the column s.category.
      catalogue_agents.search, catalogue_agents.category, catalogue_agents.max_price, catalogue_agents.min_rating
    )
$$;

grant execute on function public.like_substring(text) to anon, authenticated, service_role;
grant execute on function public.matches_catalogue_filters(text, text, text, numeric, numeric, text, text, numeric, numeric)
  to anon, authenticated, service_role;
grant execute on function public.catalogue_agents(text, text, numeric, numeric) to anon, authenticated, service_role;

-- category_counts: the same signature and answer as before (migration …000500): published agents
-- per category under the filters but the category, every category of the table in display
-- order, 0 when none match. Now through matches_catalogue_filters, and inlinable (no longer
-- SECURITY DEFINER: it reads published agents only, which every role may read, so the answer
-- is the same for everyone). agent_stats is left-joined, so that without a rating filter
-- Postgres leaves it out. CREATE OR REPLACE also clears the old SECURITY DEFINER and SET.
create or replace function public.category_counts(
  search text default null,
  max_price numeric default null,
  min_rating numeric default null
)
returns table (category text, agent_count bigint)
language sql
stable
as $$
  select c.name as category, coalesce(m.agent_count, 0) as agent_count
  from public.categories c
  left join (
    select a.category, count(*) as agent_count
    from public.agents a
    left join public.agent_stats s on s.agent_id = a.id
    where a.status = 'published'
      and public.matches_catalogue_filters(
        a.name, a.description, a.category, a.price, s.avg_rating,
        category_counts.search, null, category_counts.max_price, category_counts.min_rating
      )
    group by a.category
  ) m on m.category = c.name
  order by c.position, c.name
$$;
