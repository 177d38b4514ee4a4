-- Names that speak as the platform, third version: the rule follows the names other people read.
--
-- - Usernames: a storefront or a review shows a seller's display name or, without one, the
--   username, so a new or changed username is held to the same rule as a display name
--   ("AgentMarket", "Admins", "Verified", "Agent_Market", "AgentMarketHQ", "Staff_Picks" are
--   reserved), on top of the list of reserved names. Names that only contain a reserved word as
--   part of another ("helpful_agents", "badminton_club") stay available. Sign-up no longer turns
--   such a wanted name into a numbered one ("admin_1" speaks as the platform too) but into
--   "user", "user_1", …. Accounts that already have such a username keep it, as before.
-- - First and last names are a person's own name: the app shows them only to that person (the
--   account page, their invoices), never to others. Real surnames ("Joe Staff", "Marc
--   Official") were refused by the word rule; now a first and last name is refused only when,
--   read together, it names the platform ("AgentMarket", "Agent" + "Market").
--
-- One reading of a name (name_readings) and one word test (name_has_word) serve both questions,
-- so the folding of look-alikes lives once.

create or replace function public.name_readings(value text)
returns table (as_letters text, as_separators text, joined text, turned text)
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  with spellings as (
    -- As typed, and with words split where a lower-case letter meets a capital (not the only
    -- reading: a capital I may stand for an l, "OfficiaI").
    select value as text
    union all
    select pg_catalog.regexp_replace(pg_catalog.normalize(value, 'NFKD'), '([a-z])([A-Z])', '\1 \2', 'g')
  ),
  folded as (
    -- Compatibility forms and accents folded (NFKD; marks deleted with everything else that is
    -- not printable ASCII once the look-alikes are mapped), "rn" read as "m". The map covers both
    -- cases and what lower() makes of them: under the C collation lower() changes only A–Z.
    select pg_catalog.regexp_replace(
      pg_catalog.replace(
        pg_catalog.translate(
          pg_catalog.lower(pg_catalog.normalize(spellings.text, 'NFKD')),
          'аеорсхуіјѕԁһкмтвнАЕОРСХУІЈЅҺКМТВНӀӏοαρνικτυχεΟΑΡΝΙΚΤΥΧΕΒβΜμΗηΖζՕօᎪꭺᎠꭰᎷꮇᏆꮖᏴᏼᏟꮯᎬꭼᏀꮐᎻꮋᏦꮶᏞꮮᏢꮲᏚꮪᏔꮤᏙꮩᎳꮃᎢꭲᏃꮓᎫꭻᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢıɑɡɩ🅰🅐🇦🅱🅑🇧🅲🅒🇨🅳🅓🇩🅴🅔🇪🅵🅕🇫🅶🅖🇬🅷🅗🇭🅸🅘🇮🅹🅙🇯🅺🅚🇰🅻🅛🇱🅼🅜🇲🅽🅝🇳🅾🅞🇴🅿🅟🇵🆀🅠🇶🆁🅡🇷🆂🅢🇸🆃🅣🇹🆄🅤🇺🆅🅥🇻🆆🅦🇼🆇🅧🇽🆈🅨🇾🆉🅩🇿',
          'aeopcxyijsdhkmtbhaeopcxyijshkmtbhlloapniktyxeoapniktyxebbmmhhzzooaaddmmiibbcceegghhkkllppsswwvvwwttzzjjabcdefghijklmnoprstuvwyziagiaaabbbcccdddeeefffggghhhiiijjjkkklllmmmnnnooopppqqqrrrssstttuuuvvvwwwxxxyyyzzz'
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
  select
    readings.as_letters,
    readings.as_separators,
    readings.joined,
    -- text turned around by a direction override reads the other way
    case when value ~ '[\u202a-\u202e\u2066-\u2069]' then pg_catalog.reverse(readings.as_letters) end
  from readings
$$;

-- Whether a name, read any of those ways, has one of the words as a whole word, or the
-- platform's name anywhere but in "Agent Marketing". Which words: 'authority' (the platform's
-- name, official, admin, administrator, moderator, staff, verified) or 'platform' (its name
-- only). The words are chosen here, never passed in: the function is callable through the API.
create or replace function public.name_has_word(value text, which text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  with words as (
    select '(^| )' || list || '( |$)' as pattern, '^' || list || '$' as whole
    from (
      select case which
        when 'authority' then '(agent ?market|off[il]c[il]a[il](ly)?|adm[il]ns?|adm[il]n[il]strators?|moderators?|staff|ver[il]f[il]ed)'
        when 'platform' then '(agent ?market)'
      end as list
    ) l
  )
  select coalesce(pg_catalog.bool_or(
    r.as_letters ~ words.pattern
    or r.as_separators ~ words.pattern
    or r.joined ~ words.whole
    or r.joined ~ 'agentmarket(?!ing)'
    or coalesce(r.turned ~ words.pattern, false)
  ), false)
  from public.name_readings(value) r, words
$$;

create or replace function public.claims_platform_authority(value text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select public.name_has_word(value, 'authority')
$$;

create or replace function public.names_the_platform(value text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select public.name_has_word(value, 'platform')
$$;

comment on function public.claims_platform_authority(text) is
  'True when a name others read (display name, username) speaks as the platform (its name, official, admin, moderator, staff, verified), look-alikes folded.';
comment on function public.names_the_platform(text) is
  'True when a name says the platform''s own name (AgentMarket), look-alikes folded.';

alter table public.users drop constraint users_names_claim_no_authority;
alter table public.users add constraint users_names_claim_no_authority check (
  not coalesce(public.claims_platform_authority(display_name), false)
  and not public.names_the_platform(pg_catalog.concat_ws(' ', first_name, last_name))
);

create or replace function public.drop_authority_names()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
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

-- The list of reserved names, as before, and any name that speaks as the platform.
create or replace function public.is_reserved_username(name text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select public.claims_platform_authority(name) or exists (
    select 1
    from pg_catalog.unnest(array[
      'admin', 'administrator', 'root', 'system', 'sysadmin', 'superuser', 'owner', 'staff', 'team',
      'moderator', 'mod', 'support', 'help', 'helpdesk', 'security', 'billing', 'payments',
      'official', 'marketplace', 'api', 'www', 'mail', 'email', 'noreply', 'no_reply', 'postmaster',
      'hostmaster', 'webmaster', 'abuse', 'info', 'contact', 'legal', 'privacy', 'terms', 'null',
      'undefined', 'anonymous', 'service_role', 'authenticated', 'supabase'
    ]) as reserved(word)
    where pg_catalog.replace(pg_catalog.lower(pg_catalog.btrim(name)), '_', '') = pg_catalog.replace(reserved.word, '_', '')
       or pg_catalog.replace(public.username_skeleton(pg_catalog.btrim(name)), '_', '') in (
            pg_catalog.replace(public.username_skeleton(reserved.word), '_', ''),
            pg_catalog.replace(public.username_skeleton(pg_catalog.upper(reserved.word)), '_', '')
          )
  )
$$;

-- As before, but a wanted name that speaks as the platform starts again from "user": adding a
-- number would not stop it speaking as the platform ("admin_1").
create or replace function public.unique_username(wanted text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  raw text := coalesce(wanted, '');
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
grant execute on function public.name_readings(text) to anon, authenticated, service_role;
grant execute on function public.name_has_word(text, text) to anon, authenticated, service_role;
grant execute on function public.names_the_platform(text) to anon, authenticated, service_role;
