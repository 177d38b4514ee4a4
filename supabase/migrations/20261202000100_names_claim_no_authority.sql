-- Names that claim the platform's authority. A display name, or a first and last name, that says
-- "AgentMarket", "official", "admin", "administrator", "moderator", "staff" or "verified" reads as
-- the platform speaking ("AgentMarket Official Support" on a storefront), so no account may set
-- one. "Support", "Help" and other ordinary words stay allowed: a seller may offer support.
--
-- The comparison folds what a look-alike would hide: compatibility forms (NFKD: full-width and
-- styled letters), accents (their marks removed), invisible characters (zero-width, soft hyphen),
-- common Cyrillic and Greek look-alikes and digits or signs used as letters (0→o, 1→i, @→a, $→s).
-- Words are compared whole ("Staffing Co", "Badminton Bots" and "Agent Marketing Lab" are fine);
-- the platform's name is found with or without a space or punctuation ("Agent-Market").
--
-- Account updates that break the rule are refused (23514, constraint
-- users_names_claim_no_authority; the app shows its own message). Sign-up never fails because of
-- it: a name from sign-up metadata (or Google) that breaks the rule is dropped, as an external
-- avatar is. Existing names that break it are removed before the constraint is added.

create or replace function public.claims_platform_authority(value text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  with folded as (
    -- lower() comes after the accents go and the map covers both cases: under the C collation
    -- (a PostgreSQL server's default) lower() changes only A–Z.
    select pg_catalog.regexp_replace(
      pg_catalog.translate(
        pg_catalog.lower(
          pg_catalog.regexp_replace(
            pg_catalog.normalize(value, 'NFKD'),
            '[\u0300-\u036f\u00ad\u200b-\u200f\u2060-\u2064\ufeff]', '', 'g'
          )
        ),
        'аеорсхуіјѕԁһкмтвнАЕОРСХУІЈЅҺКМТВНοαρνικτυχεΟΑΡΝΙΚΤΥΧΕΒΜΗΖ01!|3457@$',
        'aeopcxyijsdhkmtbhaeopcxyijshkmtbhoapviktuxeoapniktyxebmhzoiileastas'
      ),
      '[^a-z]+', ' ', 'g'
    ) as words
  )
  select folded.words ~ '(^| )(agent ?market|official|officially|admin|admins|administrator|administrators|moderator|moderators|staff|verified)( |$)'
  from folded
$$;

comment on function public.claims_platform_authority(text) is
  'True when a person''s name speaks as the platform (its name, official, admin, moderator, staff, verified), look-alikes folded.';

update public.users set display_name = null
  where display_name is not null and public.claims_platform_authority(display_name);
update public.users set first_name = null, last_name = null
  where public.claims_platform_authority(pg_catalog.concat_ws(' ', first_name, last_name));

alter table public.users add constraint users_names_claim_no_authority check (
  not coalesce(public.claims_platform_authority(display_name), false)
  and not public.claims_platform_authority(pg_catalog.concat_ws(' ', first_name, last_name))
);

-- Sign-up keeps going without the name (the account page asks for another).
create or replace function public.drop_authority_names()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.display_name is not null and public.claims_platform_authority(new.display_name) then
    new.display_name := null;
  end if;
  if public.claims_platform_authority(pg_catalog.concat_ws(' ', new.first_name, new.last_name)) then
    new.first_name := null;
    new.last_name := null;
  end if;
  return new;
end
$$;
revoke execute on function public.drop_authority_names() from public, anon, authenticated;

create trigger users_drop_authority_names before insert on public.users
  for each row execute function public.drop_authority_names();
