-- Names that speak as the platform, second version: what an outside review got past the first.
--
-- - Invisible and combining characters outside the few the first version removed (variation
--   selectors, direction overrides, tag characters, other combining marks) were turned into
--   spaces and split a word ("Adm<U+FE00>in"). Now every character that is still not printable
--   ASCII after folding is deleted, not spaced: it can no longer split a word.
-- - More look-alikes: Armenian, Cherokee, Latin small capitals, dotless i, Latin alpha and script
--   g, the Cyrillic palochka, negative squared and circled letters, regional indicators; a capital
--   I for an l ("OfficiaI") and "rn" for "m" ("Adrnin"); text a direction override turns around.
-- - Words glued together ("AgentMarketOfficial", "VerifiedSeller") are split where a lower-case
--   letter meets a capital; the platform's name is found anywhere, glued or not
--   ("AgentMarketHQ"), except as "Agent Marketing"; a trailing digit or sign no longer hides a
--   word ("Admin!", "Staff3": digits and signs are read both as letters and as separators); a
--   name spelled letter by letter ("S T A F F", "A.D.M.I.N") is read joined.
--
-- Names that break the new reading are removed, as the first version did.

create or replace function public.claims_platform_authority(value text)
returns boolean
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
  ),
  words as (
    select list, '(^| )' || list || '( |$)' as pattern
    from (select '(agent ?market|off[il]c[il]a[il](ly)?|adm[il]ns?|adm[il]n[il]strators?|moderators?|staff|ver[il]f[il]ed)'::text as list) l
  )
  select coalesce(pg_catalog.bool_or(
    readings.as_letters ~ words.pattern
    or readings.as_separators ~ words.pattern
    or readings.joined ~ ('^' || words.list || '$')
    or readings.joined ~ 'agentmarket(?!ing)'
    -- text turned around by a direction override reads the other way
    or (value ~ '[\u202a-\u202e\u2066-\u2069]' and pg_catalog.reverse(readings.as_letters) ~ words.pattern)
  ), false)
  from readings, words
$$;

update public.users set display_name = null
  where display_name is not null and public.claims_platform_authority(display_name);
update public.users set first_name = null, last_name = null
  where public.claims_platform_authority(pg_catalog.concat_ws(' ', first_name, last_name));
