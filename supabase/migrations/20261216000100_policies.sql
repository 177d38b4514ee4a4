-- Policies (ADR 069): the Terms of Service, the Privacy Policy and the Seller Policy as versioned
-- Markdown documents. Anyone reads every version; an admin publishes a new one (the database
-- numbers it, dates it and names who published it; a version never changes afterwards). Each
-- user's acceptance of a version is recorded (user, document, version, time): on sign-up the
-- Terms and the Privacy Policy in force, on becoming a seller the Seller Policy, and whenever the
-- app asks them to accept a newer one (before a purchase; a seller before a listing change).

create table public.policy_versions (
  document text not null constraint policy_versions_document_check check (document in ('terms', 'privacy', 'seller')),
  version integer not null default 1 constraint policy_versions_version_check check (version >= 1),
  body text not null constraint policy_versions_body_length check (char_length(body) between 1 and 50000),
  summary text not null constraint policy_versions_summary_length check (char_length(summary) between 1 and 500),
  published_at timestamptz not null default now(),
  published_by uuid references public.users (id) on delete set null,
  primary key (document, version)
);

create table public.policy_acceptances (
  user_id uuid not null references public.users (id) on delete cascade,
  document text not null,
  version integer not null,
  accepted_at timestamptz not null default now(),
  primary key (user_id, document, version),
  foreign key (document, version) references public.policy_versions (document, version)
);
create index policy_acceptances_document_version_idx on public.policy_acceptances (document, version);

-- A new version is the next number, published now, by whoever publishes it (not what the caller says).
create function public.policy_versions_stamp()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('policy_versions:' || new.document));
  new.version := coalesce((select max(v.version) from public.policy_versions v where v.document = new.document), 0) + 1;
  new.published_at := now();
  new.published_by := auth.uid();
  return new;
end
$$;
revoke execute on function public.policy_versions_stamp() from public, anon, authenticated;
create trigger policy_versions_stamp before insert on public.policy_versions
  for each row execute function public.policy_versions_stamp();

-- An acceptance is of now, whatever the caller says.
create function public.policy_acceptances_stamp()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.accepted_at := now();
  return new;
end
$$;
revoke execute on function public.policy_acceptances_stamp() from public, anon, authenticated;
create trigger policy_acceptances_stamp before insert on public.policy_acceptances
  for each row execute function public.policy_acceptances_stamp();

alter table public.policy_versions enable row level security;
create policy "policy_versions: anyone reads" on public.policy_versions for select using (true);
create policy "policy_versions: admins publish" on public.policy_versions for insert to authenticated
  with check (public.is_admin());
select public.require_second_factor('public.policy_versions');
-- Only these privileges (a new table gets every privilege by default): no update or delete.
revoke all on public.policy_versions from anon, authenticated;
grant select on public.policy_versions to anon, authenticated;
grant insert (document, body, summary) on public.policy_versions to authenticated;
grant select, insert on public.policy_versions to service_role;

alter table public.policy_acceptances enable row level security;
create policy "policy_acceptances: own or admin reads" on public.policy_acceptances for select to authenticated
  using (user_id = (select auth.uid()) or public.is_admin());
create policy "policy_acceptances: accept for oneself" on public.policy_acceptances for insert to authenticated
  with check (user_id = (select auth.uid()));
select public.require_second_factor('public.policy_acceptances');
revoke all on public.policy_acceptances from anon, authenticated;
grant select on public.policy_acceptances to authenticated;
grant insert (user_id, document, version) on public.policy_acceptances to authenticated;
grant select, insert on public.policy_acceptances to service_role;

-- The version of each document in force now.
create view public.current_policies with (security_invoker = true) as
  select distinct on (v.document) v.document, v.version, v.summary, v.published_at
  from public.policy_versions v
  order by v.document, v.version desc;
grant select on public.current_policies to anon, authenticated, service_role;

-- The documents whose version in force the signed-in user has not accepted: the Terms and the
-- Privacy Policy for everyone, the Seller Policy for sellers (and admins, who may list too).
create function public.pending_policies()
returns table (document text, version integer, summary text, published_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select c.document, c.version, c.summary, c.published_at
  from public.current_policies c
  join public.users u on u.id = auth.uid()
  where (c.document <> 'seller' or u.user_type in ('seller', 'admin'))
    and not exists (
      select 1 from public.policy_acceptances a
      where a.user_id = u.id and a.document = c.document and a.version = c.version
    )
  order by c.document
$$;
revoke execute on function public.pending_policies() from public, anon;
grant execute on function public.pending_policies() to authenticated, service_role;

-- The first versions: what /terms and /privacy said, and the seller terms of Become a Seller.
insert into public.policy_versions (document, body, summary) values
('terms', $md$## Accounts

You are responsible for your account and for keeping your password secret. You must be at least 16 years old.

## Buying

A purchase gives you a licence to use the agent as its seller describes. Prices are shown in US dollars.

## Selling

Sellers must own the rights to what they list, describe it honestly and support their buyers.

## Termination

We may suspend accounts that break these terms or the law.
$md$, 'The first published version.'),
('privacy', $md$## What we collect

Your email address, the profile details you choose to add, your purchases and reviews, and the technical data needed to keep the service secure.

## How we use it

To run your account, process purchases, show your public profile according to your privacy settings, and send the emails you opted into.

## Your rights

You can export your data or delete your account at any time from **Profile & Settings → Data & Export**.
$md$, 'The first published version.'),
('seller', $md$## Platform fee

AgentMarket keeps the platform fee shown on [Pricing](/pricing) from each sale; you keep the rest. No listing fees, no monthly fees. A refunded sale costs you nothing.

## Payouts

Your earnings, after the fee and any refunds, are paid out monthly. Your Earnings page shows every sale, fee and refund as it happens.

## Listing rules

List only agents you built or may sell, describe what they really do, and ship a working package. Agents that break the rules are unpublished with a reason you can see.
$md$, 'The first published version.');

-- Everyone agreed to the Terms (and read the Privacy Policy) when they made their account, and
-- every seller accepted the seller terms when becoming one: recorded against the first versions.
insert into public.policy_acceptances (user_id, document, version)
  select u.id, d.document, 1 from public.users u cross join (values ('terms'), ('privacy')) as d(document);
insert into public.policy_acceptances (user_id, document, version)
  select u.id, 'seller', 1 from public.users u where u.user_type in ('seller', 'admin');

-- A new account accepts the Terms and the Privacy Policy in force ("By creating an account you
-- agree to them", on the sign-up form and the Google sign-in).
create function public.accept_policies_on_sign_up()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.policy_acceptances (user_id, document, version)
    select new.id, c.document, c.version from public.current_policies c where c.document in ('terms', 'privacy')
    on conflict do nothing;
  return new;
end
$$;
revoke execute on function public.accept_policies_on_sign_up() from public, anon, authenticated;
create trigger users_accept_policies_on_sign_up after insert on public.users
  for each row execute function public.accept_policies_on_sign_up();
