-- Becoming a seller and storefronts: a seller's display name, pitch and the moment
-- they accepted the seller terms; both shown on their storefront through public_profiles; the
-- storefront's figures from their published agents.

-- ---------------------------------------------------------------------------------------------
-- users: the seller's public business details
-- ---------------------------------------------------------------------------------------------
alter table public.users
  add column display_name text
    constraint users_display_name_length check (char_length(btrim(display_name)) between 1 and 60),
  add column seller_pitch text
    constraint users_seller_pitch_length check (char_length(seller_pitch) <= 500),
  add column seller_terms_accepted_at timestamptz;

comment on column public.users.display_name is 'The name a seller shows on their storefront and listings (the username when null).';
comment on column public.users.seller_pitch is 'A short introduction on the seller''s storefront.';
comment on column public.users.seller_terms_accepted_at is 'When the user accepted the seller terms (set by the app''s trusted code on becoming a seller).';

-- The owner edits their display name, pitch and response time under the existing owner-update
-- policy; the account type and the moment the seller terms were accepted belong to trusted code
-- (the service role, which becomes a seller only after the app's checks) and administrators.
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
    -- Recorded by the app when the user becomes a seller, never by the user directly.
    new.seller_terms_accepted_at := old.seller_terms_accepted_at;
    -- The email belongs to Auth (changed through auth.updateUser and synced by a trigger).
    new.email := old.email;
  end if;
  new.id := old.id;
  new.created_at := old.created_at;
  return new;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- public_profiles gains the display name and pitch (new columns at the end; the rest as before).
-- A seller's (or administrator's) display name and pitch are business details for their
-- storefront: shown to everyone unless the profile is private (then only to its owner), whatever
-- the members-only setting. A buyer's are personal and follow the profile's visibility.
-- ---------------------------------------------------------------------------------------------
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
  u.response_time_hours,
  case when v.business_visible then u.display_name end as display_name,
  case when v.business_visible then u.seller_pitch end as seller_pitch
from public.users u
left join public.user_settings s on s.user_id = u.id
left join public.user_presence pr on pr.user_id = u.id
cross join lateral (
  select
    u.id = auth.uid()
    or coalesce(s.profile_visibility, 'public') = 'public'
    or (s.profile_visibility = 'members' and auth.uid() is not null) as visible,
    u.id = auth.uid()
    or (u.user_type in ('seller', 'admin') and coalesce(s.profile_visibility, 'public') <> 'private')
    or coalesce(s.profile_visibility, 'public') = 'public'
    or (s.profile_visibility = 'members' and auth.uid() is not null) as business_visible
) v;

-- ---------------------------------------------------------------------------------------------
-- seller_storefront_figures: a seller's published agents, their completed sales and their
-- average rating weighted by each agent's number of reviews (null without reviews). SECURITY
-- INVOKER: the caller's view of agents_with_stats (anon: published agents only) is what counts.
-- ---------------------------------------------------------------------------------------------
create function public.seller_storefront_figures(seller uuid)
returns table (agent_count bigint, total_sales bigint, review_count bigint, avg_rating numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select
    count(*),
    coalesce(sum(s.purchase_count), 0)::bigint,
    coalesce(sum(s.review_count), 0)::bigint,
    round(sum(s.avg_rating * s.review_count) / nullif(sum(s.review_count), 0), 2)
  from public.agents_with_stats s
  where s.seller_id = seller_storefront_figures.seller and s.status = 'published'
$$;

revoke execute on function public.seller_storefront_figures(uuid) from public;
grant execute on function public.seller_storefront_figures(uuid) to anon, authenticated, service_role;
