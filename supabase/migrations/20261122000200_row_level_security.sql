-- Row-level security on every public table, plus privileges narrowed beyond what the default
-- privileges grant (ALL to anon, authenticated, service_role). service_role bypasses RLS.
-- Policies call auth.uid() / helpers through (select …) so Postgres evaluates them once per query.

alter table public.users enable row level security;
alter table public.user_settings enable row level security;
alter table public.agents enable row level security;
alter table public.agent_packages enable row level security;
alter table public.agent_stats enable row level security;
alter table public.purchases enable row level security;
alter table public.reviews enable row level security;
alter table public.newsletter_subscribers enable row level security;
alter table public.downloads enable row level security;

-- TRUNCATE ignores RLS: never for the API roles.
revoke truncate on all tables in schema public from anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- users: own full row (read, update); admins everything. Other people's public fields come
-- from the view public.public_profiles. Rows are created by the sign-up trigger only.
-- ---------------------------------------------------------------------------------------------
revoke insert, delete on public.users from anon, authenticated;

create policy "users: owner reads own profile" on public.users
  for select to authenticated using (id = (select auth.uid()));
create policy "users: admin reads all profiles" on public.users
  for select to authenticated using ((select public.is_admin()));
create policy "users: owner updates own profile" on public.users
  for update to authenticated using (id = (select auth.uid())) with check (id = (select auth.uid()));
create policy "users: admin updates any profile" on public.users
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- user_settings: own row only (created by the sign-up trigger; insert allowed for repair).
-- ---------------------------------------------------------------------------------------------
revoke delete on public.user_settings from anon, authenticated;

create policy "user_settings: owner reads" on public.user_settings
  for select to authenticated using (user_id = (select auth.uid()));
create policy "user_settings: owner inserts" on public.user_settings
  for insert to authenticated with check (user_id = (select auth.uid()));
create policy "user_settings: owner updates" on public.user_settings
  for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------------------------
-- agents: published for everyone; sellers manage their own (drafts included); buyers keep
-- seeing agents they purchased even once archived; admins read and moderate everything.
-- ---------------------------------------------------------------------------------------------
create policy "agents: anyone reads published" on public.agents
  for select to anon, authenticated using (status = 'published');
create policy "agents: seller reads own" on public.agents
  for select to authenticated using (seller_id = (select auth.uid()));
create policy "agents: buyer reads purchased" on public.agents
  for select to authenticated using (
    exists (select 1 from public.purchases p where p.agent_id = agents.id and p.buyer_id = (select auth.uid()))
  );
create policy "agents: admin reads all" on public.agents
  for select to authenticated using ((select public.is_admin()));
create policy "agents: seller inserts own" on public.agents
  for insert to authenticated with check (seller_id = (select auth.uid()) and (select public.is_seller()));
create policy "agents: seller updates own" on public.agents
  for update to authenticated using (seller_id = (select auth.uid())) with check (seller_id = (select auth.uid()));
create policy "agents: admin updates any" on public.agents
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "agents: seller deletes own" on public.agents
  for delete to authenticated using (seller_id = (select auth.uid()));
create policy "agents: admin deletes any" on public.agents
  for delete to authenticated using ((select public.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- agent_packages: the seller manages; the seller, admins and buyers with a completed purchase read.
-- ---------------------------------------------------------------------------------------------
create policy "agent_packages: seller, admin or buyer reads" on public.agent_packages
  for select to authenticated using (
    exists (select 1 from public.agents a where a.id = agent_packages.agent_id and a.seller_id = (select auth.uid()))
    or exists (
      select 1 from public.purchases p
      where p.agent_id = agent_packages.agent_id and p.buyer_id = (select auth.uid()) and p.status = 'completed'
    )
    or (select public.is_admin())
  );
create policy "agent_packages: seller inserts" on public.agent_packages
  for insert to authenticated with check (
    exists (select 1 from public.agents a where a.id = agent_packages.agent_id and a.seller_id = (select auth.uid()))
  );
create policy "agent_packages: seller updates" on public.agent_packages
  for update to authenticated
  using (exists (select 1 from public.agents a where a.id = agent_packages.agent_id and a.seller_id = (select auth.uid())))
  with check (exists (select 1 from public.agents a where a.id = agent_packages.agent_id and a.seller_id = (select auth.uid())));
create policy "agent_packages: seller deletes" on public.agent_packages
  for delete to authenticated
  using (exists (select 1 from public.agents a where a.id = agent_packages.agent_id and a.seller_id = (select auth.uid())));

-- ---------------------------------------------------------------------------------------------
-- agent_stats: aggregates only, readable by everyone, written only by triggers.
-- ---------------------------------------------------------------------------------------------
revoke insert, update, delete on public.agent_stats from anon, authenticated;
create policy "agent_stats: anyone reads" on public.agent_stats
  for select to anon, authenticated using (true);

-- ---------------------------------------------------------------------------------------------
-- purchases: buyer reads own, seller reads sales of their agents, admin reads all.
-- Only service_role writes (server code after payment).
-- ---------------------------------------------------------------------------------------------
revoke insert, update, delete on public.purchases from anon, authenticated;
create policy "purchases: buyer reads own" on public.purchases
  for select to authenticated using (buyer_id = (select auth.uid()));
create policy "purchases: seller reads sales" on public.purchases
  for select to authenticated using (seller_id = (select auth.uid()));
create policy "purchases: admin reads all" on public.purchases
  for select to authenticated using ((select public.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- reviews: public; written by their author (the purchase requirement is a trigger).
-- ---------------------------------------------------------------------------------------------
create policy "reviews: anyone reads" on public.reviews
  for select to anon, authenticated using (true);
create policy "reviews: author inserts" on public.reviews
  for insert to authenticated with check (buyer_id = (select auth.uid()));
create policy "reviews: author updates" on public.reviews
  for update to authenticated using (buyer_id = (select auth.uid())) with check (buyer_id = (select auth.uid()));
create policy "reviews: author deletes" on public.reviews
  for delete to authenticated using (buyer_id = (select auth.uid()));
create policy "reviews: admin deletes any" on public.reviews
  for delete to authenticated using ((select public.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- newsletter_subscribers: anyone subscribes; nobody but service_role reads.
-- Insert with Prefer: return=minimal (supabase-js' default without .select()).
-- ---------------------------------------------------------------------------------------------
revoke select, update, delete on public.newsletter_subscribers from anon, authenticated;
create policy "newsletter_subscribers: anyone subscribes" on public.newsletter_subscribers
  for insert to anon, authenticated with check (true);

-- ---------------------------------------------------------------------------------------------
-- downloads: buyer reads own, seller reads downloads of their agents, admin all; service_role writes.
-- ---------------------------------------------------------------------------------------------
revoke insert, update, delete on public.downloads from anon, authenticated;
create policy "downloads: buyer reads own" on public.downloads
  for select to authenticated using (buyer_id = (select auth.uid()));
create policy "downloads: seller reads own agents" on public.downloads
  for select to authenticated using (
    exists (select 1 from public.agents a where a.id = downloads.agent_id and a.seller_id = (select auth.uid()))
  );
create policy "downloads: admin reads all" on public.downloads
  for select to authenticated using ((select public.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Internal functions are not API endpoints.
-- ---------------------------------------------------------------------------------------------
revoke execute on function public.refresh_agent_stats(uuid) from public, anon, authenticated;
revoke execute on function public.unique_username(text) from public, anon, authenticated;
revoke execute on function public.handle_new_auth_user() from public, anon, authenticated;
revoke execute on function public.handle_auth_user_email_change() from public, anon, authenticated;
revoke execute on function public.set_purchase_seller() from public, anon, authenticated;
revoke execute on function public.guard_review() from public, anon, authenticated;
revoke execute on function public.agent_stats_on_agent_insert() from public, anon, authenticated;
revoke execute on function public.agent_stats_on_change() from public, anon, authenticated;
