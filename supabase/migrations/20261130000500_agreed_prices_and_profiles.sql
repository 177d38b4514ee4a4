-- Prices the buyer agreed to, and what profiles show (docs/security.md).
--
--   * agents.price stays within the listing form's range, 0 to 300 dollars (MAX_PRICE in
--     app/schemas/listing.ts), whatever writes it: the Data API no longer takes 99,999,999.99.
--   * public_profiles lists only the accounts a public page names (sellers, authors of reviews),
--     plus the viewer's own row, the buyers of the viewer's agents, and everyone for admins and
--     trusted server code; besides the username, it shows only what the profile's privacy allows
--     (sign-up time, online status and response time too), and never an account's role beyond
--     "seller".
--   * a review's times are the server's: its author cannot backdate it or change when it was
--     written.
--   * a profile picture is an upload of its owner to the avatars bucket, as a same-site path:
--     no external URL (a tracking pixel in every page that shows the picture), a sign-up's
--     picture from an identity provider included.

-- ---------------------------------------------------------------------------------------------
-- agents.price: the listing form's ceiling
-- ---------------------------------------------------------------------------------------------
-- Not valid first, validated when every row is within it: a deployment holding a price above
-- the ceiling (only the Data API could write one) still starts; such a row cannot be saved again
-- until its price is lowered.
alter table public.agents
  add constraint agents_price_ceiling check (price <= 300) not valid;
do $$
begin
  if not exists (select 1 from public.agents where price > 300) then
    alter table public.agents validate constraint agents_price_ceiling;
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- public_profiles: the accounts public pages need, and only what their privacy allows
-- ---------------------------------------------------------------------------------------------
-- Same columns as migration 20261127000400 (the views and functions built on it keep working):
--   user_type    'seller' for an account that sells (a seller, or anyone with an agent), else
--                null: roles are not public;
--   created_at, is_online, response_time_hours  only to those who may see the profile;
-- and the rows:
--   listed       trusted server code (service role) and admins: every account; anyone else:
--                their own, sellers (storefronts, cards, purchases), authors of reviews (the
--                agent page), and, for a seller, the buyers of their agents (Sales).
create or replace view public.public_profiles as
select
  u.id,
  u.username,
  case when v.visible then u.profile_image_url end as profile_image_url,
  case when r.sells then 'seller' end as user_type,
  case when v.visible then u.created_at end as created_at,
  case when v.visible then u.first_name end as first_name,
  case when v.visible then u.last_name end as last_name,
  case when v.visible then u.bio end as bio,
  case when v.visible then u.website end as website,
  case when v.visible then u.location end as location,
  case when v.visible and (s.show_email or u.id = (select auth.uid())) then u.email end as email,
  case when v.visible and (s.show_phone or u.id = (select auth.uid())) then u.phone end as phone,
  v.visible and coalesce(pr.last_active_at > now() - interval '15 minutes', false) as is_online,
  case when v.visible then u.response_time_hours end as response_time_hours,
  case when v.visible then u.display_name end as display_name,
  case when v.visible then u.seller_pitch end as seller_pitch,
  coalesce(s.profile_visibility, 'public') as visibility,
  v.visible
from public.users u
left join public.user_settings s on s.user_id = u.id
left join public.user_presence pr on pr.user_id = u.id
cross join lateral (
  select
    coalesce(u.id = (select auth.uid()), false)
    or coalesce(s.profile_visibility, 'public') = 'public'
    or (s.profile_visibility = 'members' and (select auth.uid()) is not null) as visible
) v
cross join lateral (
  select u.user_type = 'seller' or exists (select 1 from public.agents a where a.seller_id = u.id) as sells
) r
where current_user not in ('anon', 'authenticated')
  or (select public.is_admin())
  or u.id = (select auth.uid())
  or r.sells
  or exists (select 1 from public.reviews rv where rv.buyer_id = u.id)
  or exists (select 1 from public.purchases p where p.buyer_id = u.id and p.seller_id = (select auth.uid()));

comment on view public.public_profiles is
  'What a viewer may see of the accounts public pages name (sellers, review authors; a seller''s buyers to that seller; all to admins): the username always; the rest only when the profile''s visibility allows (public, members = signed in, private = owner); email/phone only when shown; the role only as "seller".';

-- ---------------------------------------------------------------------------------------------
-- reviews: created_at and updated_at are the server's
-- ---------------------------------------------------------------------------------------------
-- For the roles the app and the API write with: a new review is written now, and an edit keeps
-- when it was first written (updated_at is set by reviews_set_updated_at). The seed and
-- migrations, run as the owner, write history.
create or replace function public.keep_review_times()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  if tg_op = 'INSERT' then
    new.created_at := now();
    new.updated_at := now();
  else
    new.created_at := old.created_at;
  end if;
  return new;
end
$$;
revoke execute on function public.keep_review_times() from public, anon, authenticated;

create trigger reviews_keep_times before insert or update on public.reviews
  for each row execute function public.keep_review_times();

-- ---------------------------------------------------------------------------------------------
-- users.profile_image_url: an upload of the account's own, in the avatars bucket
-- ---------------------------------------------------------------------------------------------
-- The path the account page stores (app/server/account.server.ts replacePicture):
-- /storage/v1/object/public/avatars/<user id>/<file name>.<jpg|png|gif|webp>.
create or replace function public.is_own_avatar(value text, owner uuid)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select pg_catalog.char_length(value) <= 200
    and value ~ ('^/storage/v1/object/public/avatars/' || owner::text || '/[A-Za-z0-9_-]{1,100}\.(jpg|png|gif|webp)$')
$$;

-- Pictures from elsewhere are dropped (their owners upload one again on the account page).
update public.users set profile_image_url = null
  where profile_image_url is not null and not public.is_own_avatar(profile_image_url, id);

alter table public.users drop constraint if exists users_profile_image_url_source;
alter table public.users add constraint users_profile_image_url_own_upload
  check (profile_image_url is null or public.is_own_avatar(profile_image_url, id));

-- A new account starts without a picture from elsewhere: sign-in with Google offers its picture
-- URL (avatar_url / picture in the metadata), which is not kept.
create or replace function public.drop_external_avatar()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.profile_image_url is not null and not public.is_own_avatar(new.profile_image_url, new.id) then
    new.profile_image_url := null;
  end if;
  return new;
end
$$;
revoke execute on function public.drop_external_avatar() from public, anon, authenticated;

create trigger users_drop_external_avatar before insert on public.users
  for each row execute function public.drop_external_avatar();
