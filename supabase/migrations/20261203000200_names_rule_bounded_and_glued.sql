-- Names that speak as the platform, fourth version: what an outside attack on the third got past
-- it, and the cost of reading a name bounded.
--
-- - Cost: a name is read only up to 300 characters; a longer one counts as speaking as the
--   platform (no name field allows that many). Sign-up cut a wanted username to 30 characters
--   only after reading it whole (a megabyte of metadata held the database for 15 s); it now cuts
--   first. First and last names are at most 60 characters (the profile form's limit), in the
--   database too: sign-up cuts longer ones, an update is refused.
-- - Glued words in one case ("adminteam", "STAFFPICKS", "officialstore", "theadmins"), and
--   words split by tabs, line breaks or invisible spaces ("Staff<TAB>Picks", "Verified<ZWSP>Seller",
--   "A.D.M.I.N. Team"): a platform word with a common word glued before or after it is read as
--   such ("the", "team", "picks", "store", "seller", "support", "hq", …). "Badminton" and
--   "Staffordshire" stay allowed. Visible spaces of every kind count as spaces.
-- - Plurals and variants: "officials", "staffs", "adminz", "mod", "mods", "moderation".
-- - Role names glued to a department word ("Support_Team", "security_team", "billing_dept",
--   "help_center", "trust_safety", "SystemNotice"): reserved as the platform's desks. "Support
--   Bots" and "Acme Support Team" stay allowed.
-- - Direction controls (U+202A–U+202E, U+2066–U+2069) have no use in a name but to show letters in
--   another order than they are stored: a name with one is refused.
-- - More look-alikes: Greek nu read as v, Cyrillic izhitsa, Cherokee and Lisu letters, Armenian,
--   APL and IPA letters, ø, đ, ħ, ł, ŧ, ß, ð, þ, ¡, ƒ (and, for Armenian capitals, what lower()
--   makes of them).
-- - First and last names are no longer in public_profiles for anyone but their owner, admins and
--   trusted server code: no page shows them to others, and the word rule does not apply to them.

create or replace function public.name_readings(value text)
returns table (as_letters text, as_separators text, joined text, turned text)
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  with input as (
    -- Every visible space (tab, line break, no-break and wide spaces) is a space.
    select pg_catalog.regexp_replace(value, '[[:space:]\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]', ' ', 'g') as text
    where pg_catalog.char_length(value) <= 300
  ),
  spellings as (
    -- As typed, and with words split where a lower-case letter meets a capital (not the only
    -- reading: a capital I may stand for an l, "OfficiaI").
    select input.text from input
    union all
    select pg_catalog.regexp_replace(pg_catalog.normalize(input.text, 'NFKD'), '([a-z])([A-Z])', '\1 \2', 'g') from input
  ),
  folded as (
    -- Compatibility forms and accents folded (NFKD; marks deleted with everything else that is
    -- not printable ASCII once the look-alikes are mapped), "rn" read as "m". The map covers both
    -- cases and what lower() makes of them: under the C collation lower() changes only A–Z.
    select pg_catalog.regexp_replace(
      pg_catalog.replace(
        pg_catalog.translate(
          pg_catalog.lower(pg_catalog.normalize(spellings.text, 'NFKD')),
          'аеорсхуіјѕԁһкмтвнАЕОРСХУІЈЅҺКМТВНӀӏοαρνικτυχεΟΑΡΝΙΚΤΥΧΕΒβΜμΗηΖζՕօᎪꭺᎠꭰᎷꮇᏆꮖᏴᏼᏟꮯᎬꭼᏀꮐᎻꮋᏦꮶᏞꮮᏢꮲᏚꮪᏔꮤᏙꮩᎳꮃᎢꭲᏃꮓᎫꭻᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢıɑɡɩ🅰🅐🇦🅱🅑🇧🅲🅒🇨🅳🅓🇩🅴🅔🇪🅵🅕🇫🅶🅖🇬🅷🅗🇭🅸🅘🇮🅹🅙🇯🅺🅚🇰🅻🅛🇱🅼🅜🇲🅽🅝🇳🅾🅞🇴🅿🅟🇵🆀🅠🇶🆁🅡🇷🆂🅢🇸🆃🅣🇹🆄🅤🇺🆅🅥🇻🆆🅦🇼🆇🅧🇽🆈🅨🇾🆉🅩🇿ѵѴᎥꭵꓮꓐꓚꓓꓰꓝꓖꓧꓲꓙꓗꓡꓟꓠꓳꓑꓣꓢꓔꓴꓦꓪꓫꓬꓜՏՍհոսցզԼ⍺⍳⍴⍵⍸¡ƒǀꞵɒɓɗɦɨɭɱɲɳʂʈʋʐȷɵøØđĐħĦłŁŧŦßðþտլ',
          'aeopcxyijsdhkmtbhaeopcxyijshkmtbhlloapviktyxeoapniktyxebbmmhhzzooaaddmmiibbcceegghhkkllppsswwvvwwttzzjjabcdefghijklmnoprstuvwyziagiaaabbbcccdddeeefffggghhhiiijjjkkklllmmmnnnooopppqqqrrrssstttuuuvvvwwwxxxyyyzzzvviiabcdefghijklmnoprstuvwxyzsuhnugqlaipwiiflbabdhilmnnstvzjoooddhhllttsdpsl'
        ),
        'rn', 'm'
      ),
      '[^ -~]', '', 'g'
    ) as text
    from spellings
  ),
  readings as (
    select
      -- digits and signs as the letters they stand for
      pg_catalog.regexp_replace(pg_catalog.translate(folded.text, '01!|3457@$', 'oiileastas'), '[^a-z]+', ' ', 'g') as as_letters,
      -- digits and signs as separators
      pg_catalog.regexp_replace(folded.text, '[^a-z]+', ' ', 'g') as as_separators,
      -- the letters alone, joined
      pg_catalog.regexp_replace(folded.text, '[^a-z]+', '', 'g') as joined
    from folded
  )
  select readings.as_letters, readings.as_separators, readings.joined, null::text
  from readings
$$;

-- Whether a name speaks as the platform ('authority': its name, official, admin, administrator,
-- moderator, mod, staff, verified, as a word, glued to a common word, or a desk such as "support
-- team"), or names it ('platform': its name only). Longer than 300 characters, or with a
-- direction control: yes. The words are chosen here, never passed in: the function is callable
-- through the API.
create or replace function public.name_has_word(value text, which text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select case
    when pg_catalog.char_length(value) > 300 or value ~ '[\u202a-\u202e\u2066-\u2069]' then true
    else (
      with words as (
        select
          '(^| )' || l.list || '( |$)' as pattern,
          '^(' || l.glued || ')?' || l.list || '(' || l.glued || ')?$' as whole,
          l.desks
        from (
          select
            case which
              when 'authority' then '(agent ?market|off[il]c[il]a[il](s|ly)?|adm[il]n[sz]?|adm[il]n[il]strat[o0]rs?|moderat[o0]rs?|moderation|mods?|staffs?|ver[il]f[il]ed)'
              when 'platform' then '(agent ?market)'
            end as list,
            case which
              when 'authority' then 'the|real|team|picks?|store|shop|sellers?|support|help|desk|hq|account|bots?|news|services?|cent(er|re)|crew|office|group|squad|dept|notices?|info|updates|alerts|security|billing|safety|trust|reviews?|panel|us'
              when 'platform' then 'the'
            end as glued,
            case which
              when 'authority' then '^(the)?(support|security|billing|help|helpdesk|system|trust|safety|abuse|legal|payments?)(team|desk|dept|department|cent(er|re)|hq|notices?|office|staff|alerts|updates|safety)s?$'
            end as desks
        ) l
      )
      select coalesce(pg_catalog.bool_or(
        r.as_letters ~ words.pattern
        or r.as_separators ~ words.pattern
        or r.joined ~ words.whole
        or r.joined ~ 'agentmarket(?!ing)'
        or coalesce(r.joined ~ words.desks, false)
      ), false)
      from public.name_readings(value) r, words
    )
  end
$$;

-- Sign-up cuts the wanted name before reading it (it becomes at most 30 characters anyway).
create or replace function public.unique_username(wanted text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  raw text := pg_catalog.left(coalesce(wanted, ''), 64);
  base text := pg_catalog.regexp_replace(raw, '[^A-Za-z0-9_]+', '_', 'g');
  candidate text;
  n integer := 0;
begin
  if base <> raw then
    base := pg_catalog.btrim(base, '_');
  end if;
  if base = '' or public.claims_platform_authority(base) then
    base := 'user';
  end if;
  base := pg_catalog.left(pg_catalog.rpad(base, greatest(pg_catalog.char_length(base), 3), '0'), 30);
  candidate := base;
  while public.is_reserved_username(candidate) or exists (
    select 1 from public.users
    where pg_catalog.lower(username) = pg_catalog.lower(candidate)
       or public.username_skeleton(username) = public.username_skeleton(candidate)
  ) loop
    n := n + 1;
    candidate := pg_catalog.left(base, 30 - pg_catalog.char_length(n::text) - 1) || '_' || n::text;
  end loop;
  return candidate;
end
$$;
revoke execute on function public.unique_username(text) from public, anon, authenticated;

-- First and last names: at most 60 characters (the profile form's limit). Sign-up cuts longer
-- ones from its metadata; an update is refused.
create or replace function public.drop_authority_names()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.first_name := pg_catalog.left(new.first_name, 60);
  new.last_name := pg_catalog.left(new.last_name, 60);
  if new.display_name is not null and public.claims_platform_authority(new.display_name) then
    new.display_name := null;
  end if;
  if public.names_the_platform(pg_catalog.concat_ws(' ', new.first_name, new.last_name)) then
    new.first_name := null;
    new.last_name := null;
  end if;
  return new;
end
$$;

-- Rows the new reading refuses, repaired in one update each (every update of a row is checked
-- against the whole new rule): names cut to 60 characters, then a display name that speaks as
-- the platform and first and last names that name it removed, as before.
update public.users u set
  display_name = case when public.claims_platform_authority(u.display_name) then null else u.display_name end,
  first_name = case when fixed.names_platform then null else fixed.first_name end,
  last_name = case when fixed.names_platform then null else fixed.last_name end
from (
  select
    id,
    pg_catalog.left(first_name, 60) as first_name,
    pg_catalog.left(last_name, 60) as last_name,
    public.names_the_platform(pg_catalog.concat_ws(' ', pg_catalog.left(first_name, 60), pg_catalog.left(last_name, 60))) as names_platform
  from public.users
) fixed
where fixed.id = u.id
  and (
    pg_catalog.char_length(u.first_name) > 60
    or pg_catalog.char_length(u.last_name) > 60
    or coalesce(public.claims_platform_authority(u.display_name), false)
    or fixed.names_platform
  );

alter table public.users add constraint users_name_lengths check (
  coalesce(pg_catalog.char_length(first_name), 0) <= 60 and coalesce(pg_catalog.char_length(last_name), 0) <= 60
);

-- As before, but first and last name only for their owner, admins and trusted server code.
create or replace view public.public_profiles as
select
  u.id,
  u.username,
  case when v.visible then u.profile_image_url end as profile_image_url,
  case when r.sells then 'seller' end as user_type,
  case when v.visible then u.created_at end as created_at,
  case when o.owner_or_trusted then u.first_name end as first_name,
  case when o.owner_or_trusted then u.last_name end as last_name,
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
  select
    coalesce(u.id = (select auth.uid()), false)
    or current_user not in ('anon', 'authenticated')
    or (select public.is_admin()) as owner_or_trusted
) o
cross join lateral (
  select u.user_type = 'seller' or exists (select 1 from public.agents a where a.seller_id = u.id) as sells
) r
where current_user not in ('anon', 'authenticated')
  or (select public.is_admin())
  or u.id = (select auth.uid())
  or r.sells
  or exists (select 1 from public.reviews rv where rv.buyer_id = u.id)
  or exists (select 1 from public.purchases p where p.buyer_id = u.id and p.seller_id = (select auth.uid()));
