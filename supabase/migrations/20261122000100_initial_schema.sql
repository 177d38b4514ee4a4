-- Marketplace schema: profiles, agents, purchases, reviews, settings, newsletter, downloads,
-- the trigger-maintained agent_stats table, and the triggers that keep them consistent.
-- Runs unchanged on hosted Supabase: no roles, no auth schema objects other than triggers on
-- auth.users, every name schema-qualified.

create extension if not exists pg_trgm with schema extensions;

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------

create table public.users (
  id uuid primary key references auth.users (id) on delete cascade,
  email text,
  username text not null constraint users_username_length check (char_length(username) between 3 and 30),
  first_name text,
  last_name text,
  bio text constraint users_bio_length check (char_length(bio) <= 500),
  website text,
  location text,
  phone text,
  profile_image_url text,
  user_type text not null default 'buyer' constraint users_user_type_check check (user_type in ('buyer', 'seller', 'admin')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_username_lower_key on public.users (lower(username));
comment on table public.users is 'Public profile of an auth user. Full row readable by its owner and admins; others use public.public_profiles.';

create table public.user_settings (
  user_id uuid primary key references public.users (id) on delete cascade,
  email_notifications boolean not null default true,
  push_notifications boolean not null default false,
  marketing_emails boolean not null default false,
  weekly_digest boolean not null default true,
  profile_visibility text not null default 'public'
    constraint user_settings_profile_visibility_check check (profile_visibility in ('public', 'members', 'private')),
  show_email boolean not null default false,
  show_phone boolean not null default false,
  two_factor_auth boolean not null default false,
  updated_at timestamptz not null default now()
);

create table public.agents (
  id uuid primary key default gen_random_uuid(),
  name text not null constraint agents_name_length check (char_length(name) between 1 and 120),
  description text not null default '' constraint agents_description_length check (char_length(description) <= 5000),
  price numeric(10, 2) not null default 0 constraint agents_price_check check (price >= 0),
  category text not null constraint agents_category_check check (
    category in ('Marketing', 'Data Analysis', 'Content Creation', 'Sales', 'Customer Support', 'Finance')
  ),
  thumbnail_url text,
  images text[] not null default '{}',
  features text[] not null default '{}',
  seller_id uuid not null references public.users (id) on delete cascade,
  status text not null default 'draft' constraint agents_status_check check (status in ('draft', 'published', 'archived')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index agents_status_created_at_idx on public.agents (status, created_at desc, id);
create index agents_status_category_idx on public.agents (status, category);
create index agents_status_price_idx on public.agents (status, price);
create index agents_seller_id_idx on public.agents (seller_id, created_at desc);
create index agents_name_trgm_idx on public.agents using gin (name extensions.gin_trgm_ops);
create index agents_description_trgm_idx on public.agents using gin (description extensions.gin_trgm_ops);

-- The downloadable package of an agent. Kept out of public.agents so that reading a published
-- agent never reveals where its paid file lives; only the seller, admins and buyers with a
-- completed purchase can read it (see the RLS migration).
create table public.agent_packages (
  agent_id uuid primary key references public.agents (id) on delete cascade,
  file_path text not null,
  file_name text,
  file_size bigint constraint agent_packages_file_size_check check (file_size >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.purchases (
  id uuid primary key default gen_random_uuid(),
  buyer_id uuid not null references public.users (id) on delete cascade,
  agent_id uuid not null references public.agents (id) on delete restrict,
  seller_id uuid references public.users (id) on delete set null,
  amount numeric(10, 2) not null constraint purchases_amount_check check (amount >= 0),
  status text not null default 'pending'
    constraint purchases_status_check check (status in ('completed', 'pending', 'failed', 'refunded')),
  payment_intent_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index purchases_one_completed_per_buyer_agent on public.purchases (buyer_id, agent_id) where status = 'completed';
create index purchases_buyer_id_created_at_idx on public.purchases (buyer_id, created_at desc);
create index purchases_agent_id_idx on public.purchases (agent_id);
create index purchases_seller_id_idx on public.purchases (seller_id, created_at desc);

create table public.reviews (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid not null references public.agents (id) on delete cascade,
  buyer_id uuid not null references public.users (id) on delete cascade,
  rating integer not null constraint reviews_rating_check check (rating between 1 and 5),
  review_text text constraint reviews_review_text_length check (char_length(review_text) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint reviews_agent_id_buyer_id_key unique (agent_id, buyer_id)
);
create index reviews_agent_id_created_at_idx on public.reviews (agent_id, created_at desc);
create index reviews_buyer_id_idx on public.reviews (buyer_id);

create table public.newsletter_subscribers (
  id uuid primary key default gen_random_uuid(),
  email text not null constraint newsletter_subscribers_email_key unique
    constraint newsletter_subscribers_email_check check (email = lower(btrim(email)) and email like '%_@_%'),
  created_at timestamptz not null default now()
);

create table public.downloads (
  id uuid primary key default gen_random_uuid(),
  purchase_id uuid references public.purchases (id) on delete cascade,
  agent_id uuid not null references public.agents (id) on delete cascade,
  buyer_id uuid not null references public.users (id) on delete cascade,
  created_at timestamptz not null default now()
);
create index downloads_buyer_id_idx on public.downloads (buyer_id, created_at desc);
create index downloads_agent_id_idx on public.downloads (agent_id);
create index downloads_purchase_id_idx on public.downloads (purchase_id);

-- Aggregates per agent, maintained by triggers (docs/decisions/003-agent-stats-table.md).
-- avg_rating: mean of the agent's review ratings rounded to 2 decimals, 0 when review_count = 0.
create table public.agent_stats (
  agent_id uuid primary key references public.agents (id) on delete cascade,
  review_count integer not null default 0,
  avg_rating numeric(3, 2) not null default 0,
  purchase_count integer not null default 0,
  updated_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------
-- Helper functions used by policies (SECURITY DEFINER so they can read public.users under RLS)
-- ---------------------------------------------------------------------------------------------

create or replace function public.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.users where id = auth.uid() and user_type = 'admin')
$$;

create or replace function public.is_seller()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.users where id = auth.uid() and user_type in ('seller', 'admin'))
$$;

-- ---------------------------------------------------------------------------------------------
-- updated_at
-- ---------------------------------------------------------------------------------------------

create or replace function public.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

create trigger users_set_updated_at before update on public.users
  for each row execute function public.set_updated_at();
create trigger user_settings_set_updated_at before update on public.user_settings
  for each row execute function public.set_updated_at();
create trigger agents_set_updated_at before update on public.agents
  for each row execute function public.set_updated_at();
create trigger agent_packages_set_updated_at before update on public.agent_packages
  for each row execute function public.set_updated_at();
create trigger purchases_set_updated_at before update on public.purchases
  for each row execute function public.set_updated_at();
create trigger reviews_set_updated_at before update on public.reviews
  for each row execute function public.set_updated_at();
create trigger agent_stats_set_updated_at before update on public.agent_stats
  for each row execute function public.set_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Sign-up: auth.users → public.users + public.user_settings
-- ---------------------------------------------------------------------------------------------

-- Turns a wanted name into a free username (3–30 chars, unique case-insensitively).
create or replace function public.unique_username(wanted text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  base text := left(coalesce(nullif(btrim(wanted), ''), 'user'), 30);
  candidate text;
  n integer := 0;
begin
  if char_length(base) < 3 then
    base := rpad(base, 3, '0');
  end if;
  candidate := base;
  while exists (select 1 from public.users where lower(username) = lower(candidate)) loop
    n := n + 1;
    candidate := left(base, 30 - char_length(n::text) - 1) || '_' || n::text;
  end loop;
  return candidate;
end
$$;

create or replace function public.handle_new_auth_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  wanted text;
begin
  wanted := nullif(btrim(meta ->> 'username'), '');
  if wanted is null then
    wanted := nullif(
      regexp_replace(lower(coalesce(
        nullif(split_part(coalesce(new.email, ''), '@', 1), ''),
        meta ->> 'full_name',
        meta ->> 'name',
        ''
      )), '[^a-z0-9_]+', '_', 'g'),
      ''
    );
  end if;

  insert into public.users (id, email, username, first_name, last_name, profile_image_url, user_type, created_at, updated_at)
  values (
    new.id,
    new.email,
    public.unique_username(wanted),
    nullif(meta ->> 'given_name', ''),
    nullif(meta ->> 'family_name', ''),
    nullif(coalesce(meta ->> 'avatar_url', meta ->> 'picture'), ''),
    case when meta ->> 'user_type' in ('buyer', 'seller') then meta ->> 'user_type' else 'buyer' end,
    coalesce(new.created_at, now()),
    coalesce(new.created_at, now())
  );
  insert into public.user_settings (user_id) values (new.id);
  return new;
end
$$;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_auth_user();

-- Keeps public.users.email in step with a confirmed email change in Auth.
create or replace function public.handle_auth_user_email_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.users set email = new.email where id = new.id and email is distinct from new.email;
  return new;
end
$$;

create trigger on_auth_user_email_changed
  after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function public.handle_auth_user_email_change();

-- ---------------------------------------------------------------------------------------------
-- Profile guard: users cannot change their own user_type, email, id or created_at.
-- Runs as the caller (SECURITY INVOKER) so current_user is the API role.
-- ---------------------------------------------------------------------------------------------

create or replace function public.guard_user_profile()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and not public.is_admin() then
    if new.user_type is distinct from old.user_type then
      raise exception 'Only an administrator can change the account type'
        using errcode = '42501', hint = 'user_type is read-only for its owner';
    end if;
    -- The email belongs to Auth (changed through auth.updateUser and synced by a trigger).
    new.email := old.email;
  end if;
  new.id := old.id;
  new.created_at := old.created_at;
  return new;
end
$$;

create trigger users_guard_profile before update on public.users
  for each row execute function public.guard_user_profile();

-- ---------------------------------------------------------------------------------------------
-- Purchases: seller_id defaults to the agent's seller.
-- ---------------------------------------------------------------------------------------------

create or replace function public.set_purchase_seller()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.seller_id is null then
    select a.seller_id into new.seller_id from public.agents a where a.id = new.agent_id;
  end if;
  return new;
end
$$;

create trigger purchases_set_seller before insert on public.purchases
  for each row execute function public.set_purchase_seller();

-- ---------------------------------------------------------------------------------------------
-- Reviews: only from a buyer with a completed purchase; reviewer and agent are immutable.
-- SQLSTATE PT403 (PostgREST answers HTTP 403), message below.
-- ---------------------------------------------------------------------------------------------

create or replace function public.guard_review()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and (new.agent_id <> old.agent_id or new.buyer_id <> old.buyer_id) then
    raise exception 'A review cannot be moved to another agent or reviewer' using errcode = '22023';
  end if;
  if tg_op = 'INSERT' and not exists (
    select 1 from public.purchases p
    where p.buyer_id = new.buyer_id and p.agent_id = new.agent_id and p.status = 'completed'
  ) then
    raise exception 'A review requires a completed purchase of this agent'
      using errcode = 'PT403', hint = 'Buy the agent before reviewing it';
  end if;
  return new;
end
$$;

create trigger reviews_guard before insert or update on public.reviews
  for each row execute function public.guard_review();

-- ---------------------------------------------------------------------------------------------
-- agent_stats maintenance
-- ---------------------------------------------------------------------------------------------

create or replace function public.refresh_agent_stats(target_agent_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.agent_stats as s (agent_id, review_count, avg_rating, purchase_count)
  select
    a.id,
    (select count(*) from public.reviews r where r.agent_id = a.id),
    coalesce((select round(avg(r.rating), 2) from public.reviews r where r.agent_id = a.id), 0),
    (select count(*) from public.purchases p where p.agent_id = a.id and p.status = 'completed')
  from public.agents a
  where a.id = target_agent_id
  on conflict (agent_id) do update
    set review_count = excluded.review_count,
        avg_rating = excluded.avg_rating,
        purchase_count = excluded.purchase_count
$$;

create or replace function public.agent_stats_on_agent_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.agent_stats (agent_id) values (new.id) on conflict (agent_id) do nothing;
  return null;
end
$$;

create trigger agents_create_stats after insert on public.agents
  for each row execute function public.agent_stats_on_agent_insert();

create or replace function public.agent_stats_on_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform public.refresh_agent_stats(old.agent_id);
  end if;
  if tg_op in ('INSERT', 'UPDATE') and (tg_op = 'INSERT' or new.agent_id <> old.agent_id) then
    perform public.refresh_agent_stats(new.agent_id);
  end if;
  return null;
end
$$;

create trigger reviews_refresh_stats after insert or delete or update of rating, agent_id on public.reviews
  for each row execute function public.agent_stats_on_change();
create trigger purchases_refresh_stats after insert or delete or update of status, agent_id on public.purchases
  for each row execute function public.agent_stats_on_change();
