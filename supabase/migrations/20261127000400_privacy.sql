-- Privacy settings honoured everywhere. One rule, in
-- public.public_profiles, which every reader of another user's profile goes through (the
-- storefront, seller names on cards and the agent page, Contact Seller, reviews):
--   * public: everyone sees the profile; members: signed-in users only; private: its owner only;
--   * the username always shows (a listing names its seller; a review its author), everything
--     else (names, bio, picture, display name, pitch, contact details) only to those who may see
--     the profile. This includes a seller's display name and pitch, which
--     migration 20261126000100 showed to anonymous visitors of a members-only seller;
--   * email and phone additionally only when the user shows them (show_email / show_phone);
--   * two new columns at the end: `visibility` (the setting itself, so a page can say why it
--     shows less: "private" or "members only"; not a secret, the page says so anyway) and
--     `visible` (whether this viewer may see the profile).
-- agents_with_stats (the cards and the agent page) gains the seller's visibility at the end; its
-- seller_avatar now follows the rule above through public_profiles.

create or replace view public.public_profiles as
select
  u.id,
  u.username,
  case when v.visible then u.profile_image_url end as profile_image_url,
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
  case when v.visible then u.display_name end as display_name,
  case when v.visible then u.seller_pitch end as seller_pitch,
  coalesce(s.profile_visibility, 'public') as visibility,
  v.visible
from public.users u
left join public.user_settings s on s.user_id = u.id
left join public.user_presence pr on pr.user_id = u.id
cross join lateral (
  select
    coalesce(u.id = auth.uid(), false)
    or coalesce(s.profile_visibility, 'public') = 'public'
    or (s.profile_visibility = 'members' and auth.uid() is not null) as visible
) v;

comment on view public.public_profiles is
  'What a viewer may see of any user: the username always; the rest only when the profile''s visibility allows (public, members = signed in, private = owner); email/phone only when shown.';

-- Same columns as migration 20261126000200, seller_visibility appended (catalogue_agents,
-- `setof agents_with_stats`, returns it too).
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
  s.purchase_count,
  s.last_version_at,
  p.visibility as seller_visibility
from public.agents a
join public.agent_stats s on s.agent_id = a.id
left join public.public_profiles p on p.id = a.seller_id;
