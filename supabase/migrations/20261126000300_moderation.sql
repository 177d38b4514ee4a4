-- Users and moderation: bans, role changes, unpublishing agents, removing
-- reviews, and the audit log that records each of them.
--
--   * public.audit_log: who did what to whom, when and why. Written by trusted server code (the
--     service role, through the admin_* functions below); read by admins only; never changed.
--   * users.banned_at / ban_reason: a banned account. The Auth service refuses its sign-in and
--     ends its sessions (the app bans there too); here its listings leave the marketplace.
--   * agents.moderation_reason / moderated_at / moderated_by: an agent unpublished by a moderator
--     is a draft with a reason, which its seller reads on their own rows. Nobody publishes it
--     again without clearing the reason, and only admins may clear it ('restore').
--   * agents.seller_banned: whether the seller is banned, kept by a trigger on users, so that the
--     read policy and the catalogue hide a banned seller's agents with a column check.
--   * The last administrator (not banned) cannot be demoted or banned, and no administrator can
--     demote or ban themselves.

-- ---------------------------------------------------------------------------------------------
-- Columns
-- ---------------------------------------------------------------------------------------------
alter table public.users
  add column banned_at timestamptz,
  add column ban_reason text constraint users_ban_reason_length check (char_length(ban_reason) <= 500);

alter table public.agents
  add column moderation_reason text
    constraint agents_moderation_reason_length check (char_length(moderation_reason) between 1 and 500),
  add column moderated_at timestamptz,
  -- The moderator's id (no foreign key: a second link from agents to users would make the Data
  -- API's `users(...)` embedding of the seller ambiguous). The audit log keeps the history.
  add column moderated_by uuid,
  add column seller_banned boolean not null default false;

-- ---------------------------------------------------------------------------------------------
-- Audit log
-- ---------------------------------------------------------------------------------------------
create table public.audit_log (
  id uuid primary key default gen_random_uuid(),
  actor_id uuid references public.users (id) on delete set null,
  action text not null constraint audit_log_action_check check (action in (
    'user.role_changed', 'user.banned', 'user.unbanned', 'agent.unpublished', 'agent.restored', 'review.removed'
  )),
  target_type text not null constraint audit_log_target_type_check check (target_type in ('user', 'agent', 'review')),
  target_id uuid not null,
  reason text constraint audit_log_reason_length check (char_length(reason) <= 500),
  details jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index audit_log_created_at_idx on public.audit_log (created_at desc, id);
create index audit_log_target_idx on public.audit_log (target_type, target_id);

alter table public.audit_log enable row level security;
create policy "audit_log: admins read" on public.audit_log for select to authenticated using (public.is_admin());
-- Append-only: rows come from the service role; nobody edits or deletes history.
revoke insert, update, delete, truncate on public.audit_log from anon, authenticated;
revoke update, delete, truncate on public.audit_log from service_role;

-- ---------------------------------------------------------------------------------------------
-- Users: who may ban, and the last administrator
-- ---------------------------------------------------------------------------------------------
create or replace function public.guard_user_admin_rules()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  removes_admin boolean := old.user_type = 'admin' and old.banned_at is null
    and (new.user_type <> 'admin' or new.banned_at is not null);
begin
  if current_user in ('anon', 'authenticated') and not public.is_admin()
     and (new.banned_at, new.ban_reason) is distinct from (old.banned_at, old.ban_reason) then
    raise exception 'Only an administrator can ban or unban an account'
      using errcode = '42501', hint = 'ban_admin_only';
  end if;
  if removes_admin then
    if auth.uid() = old.id then
      raise exception 'Administrators cannot demote or ban themselves'
        using errcode = 'PT409', hint = 'own_account';
    end if;
    -- One at a time, so two admins demoting each other cannot both pass the check.
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('public.users: active admins'));
    if not exists (
      select 1 from public.users u where u.user_type = 'admin' and u.banned_at is null and u.id <> old.id
    ) then
      raise exception 'The last administrator cannot be demoted or banned'
        using errcode = 'PT409', hint = 'last_admin';
    end if;
  end if;
  return new;
end
$$;

create trigger users_guard_admin_rules before update on public.users
  for each row execute function public.guard_user_admin_rules();
revoke execute on function public.guard_user_admin_rules() from public, anon, authenticated;

-- A seller's ban reaches their agents (agents.seller_banned).
create or replace function public.sync_seller_banned()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.agents set seller_banned = (new.banned_at is not null)
  where seller_id = new.id and seller_banned is distinct from (new.banned_at is not null);
  return null;
end
$$;

create trigger users_sync_seller_banned after update of banned_at on public.users
  for each row when ((old.banned_at is null) is distinct from (new.banned_at is null))
  execute function public.sync_seller_banned();
revoke execute on function public.sync_seller_banned() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Agents: the moderation columns
-- ---------------------------------------------------------------------------------------------
create or replace function public.guard_agent_moderation()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  api_caller boolean := current_user in ('anon', 'authenticated');
begin
  if tg_op = 'INSERT' then
    if api_caller and not public.is_admin() then
      new.moderation_reason := null;
      new.moderated_at := null;
      new.moderated_by := null;
    end if;
    new.seller_banned := coalesce(
      (select u.banned_at is not null from public.users u where u.id = new.seller_id), false);
  else
    if api_caller and new.seller_banned is distinct from old.seller_banned then
      raise exception 'seller_banned follows the seller''s account' using errcode = '42501';
    end if;
    if api_caller and not public.is_admin()
       and (new.moderation_reason, new.moderated_at, new.moderated_by)
           is distinct from (old.moderation_reason, old.moderated_at, old.moderated_by) then
      raise exception 'Only an administrator can change an agent''s moderation'
        using errcode = '42501', hint = 'moderation_admin_only';
    end if;
  end if;
  if new.status = 'published' and new.moderation_reason is not null then
    raise exception 'This agent was unpublished by a moderator (%); only an administrator can restore it',
      new.moderation_reason
      using errcode = 'PT409', hint = 'agent_moderated';
  end if;
  return new;
end
$$;

create trigger agents_guard_moderation before insert or update on public.agents
  for each row execute function public.guard_agent_moderation();
revoke execute on function public.guard_agent_moderation() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Who may see an agent (same signature as migration 20261123000200), now also:
--   * a banned seller's agents: no longer public; their seller, admins and buyers keep them;
--   * an agent unpublished by a moderator (a draft with a reason): its buyers keep it in their
--     collection (a plain draft stays private to its seller and admins).
-- ---------------------------------------------------------------------------------------------
create or replace function public.can_view_agent(agent_status text, agent_seller_id uuid, target_agent_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select (agent_status = 'published'
      and not exists (select 1 from public.users u where u.id = agent_seller_id and u.banned_at is not null))
    or (auth.uid() is not null and (
      agent_seller_id = auth.uid()
      or public.is_admin()
      or (exists (
            select 1 from public.purchases p where p.agent_id = target_agent_id and p.buyer_id = auth.uid()
          )
          and (agent_status <> 'draft'
            or exists (select 1 from public.agents a where a.id = target_agent_id and a.moderation_reason is not null)))
    ))
$$;

drop policy "agents: readable per can_view_agent" on public.agents;
-- The published, not-banned test is spelled out beside the call only so that the planner can use
-- the status indexes for catalogue reads; the function is the whole rule.
create policy "agents: readable per can_view_agent" on public.agents
  for select to anon, authenticated
  using ((status = 'published' and not seller_banned) or public.can_view_agent(status, seller_id, id));

-- ---------------------------------------------------------------------------------------------
-- The catalogue: published agents of sellers who are not banned, for every viewer (admins and
-- buyers may read a banned seller's agents, but the marketplace does not list them).
-- ---------------------------------------------------------------------------------------------
create or replace function public.catalogue_agents(
  search text default null,
  category text default null,
  max_price numeric default null,
  min_rating numeric default null
)
returns setof public.agents_with_stats
language sql
stable
as $$
  select s.*
  from public.agents_with_stats s
  where s.status = 'published'
    and exists (select 1 from public.agents a where a.id = s.id and not a.seller_banned)
    and public.matches_catalogue_filters(
      s.name, s.description, s.category, s.price, s.avg_rating,
      catalogue_agents.search, catalogue_agents.category, catalogue_agents.max_price, catalogue_agents.min_rating
    )
$$;

create or replace function public.category_counts(
  search text default null,
  max_price numeric default null,
  min_rating numeric default null
)
returns table (category text, agent_count bigint)
language sql
stable
as $$
  select c.name as category, coalesce(m.agent_count, 0) as agent_count
  from public.categories c
  left join (
    select a.category, count(*) as agent_count
    from public.agents a
    left join public.agent_stats s on s.agent_id = a.id
    where a.status = 'published'
      and not a.seller_banned
      and public.matches_catalogue_filters(
        a.name, a.description, a.category, a.price, s.avg_rating,
        category_counts.search, null, category_counts.max_price, category_counts.min_rating
      )
    group by a.category
  ) m on m.category = c.name
  order by c.position, c.name
$$;

-- ---------------------------------------------------------------------------------------------
-- The user list of /dashboard/users: RLS of users and purchases applies (security invoker), so
-- an admin reads every account and anyone else only their own row.
-- ---------------------------------------------------------------------------------------------
create view public.admin_user_list with (security_invoker = true) as
select
  u.id,
  u.username,
  u.email,
  u.user_type,
  u.created_at,
  u.banned_at,
  u.ban_reason,
  (select count(*) from public.purchases p where p.buyer_id = u.id and p.status = 'completed') as purchase_count
from public.users u;
revoke all on public.admin_user_list from anon;
revoke insert, update, delete, truncate on public.admin_user_list from authenticated;
grant select on public.admin_user_list to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The admin actions, each with its audit row in one transaction. Called by the app's server
-- with the service role after its own guard (never by API roles); the actor is the admin.
-- ---------------------------------------------------------------------------------------------
create or replace function public.admin_change_role(actor uuid, target uuid, new_role text, reason text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  previous text;
begin
  if actor = target then
    raise exception 'Administrators cannot demote or ban themselves' using errcode = 'PT409', hint = 'own_account';
  end if;
  select u.user_type into previous from public.users u where u.id = target for update;
  if previous is null then
    raise exception 'No such user' using errcode = 'PT404';
  end if;
  if previous = new_role then
    return;
  end if;
  update public.users set user_type = new_role, updated_at = now() where id = target;
  insert into public.audit_log (actor_id, action, target_type, target_id, reason, details)
  values (actor, 'user.role_changed', 'user', target, reason, jsonb_build_object('from', previous, 'to', new_role));
end
$$;

create or replace function public.admin_set_ban(actor uuid, target uuid, banned boolean, reason text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if actor = target then
    raise exception 'Administrators cannot demote or ban themselves' using errcode = 'PT409', hint = 'own_account';
  end if;
  perform 1 from public.users u where u.id = target for update;
  if not found then
    raise exception 'No such user' using errcode = 'PT404';
  end if;
  update public.users
  set banned_at = case when banned then coalesce(banned_at, now()) end,
      ban_reason = case when banned then reason end,
      updated_at = now()
  where id = target;
  insert into public.audit_log (actor_id, action, target_type, target_id, reason)
  values (actor, case when banned then 'user.banned' else 'user.unbanned' end, 'user', target, reason);
end
$$;

create or replace function public.admin_moderate_agent(actor uuid, target uuid, unpublish boolean, reason text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  agent record;
begin
  select a.status, a.moderation_reason into agent from public.agents a where a.id = target for update;
  if not found then
    raise exception 'No such agent' using errcode = 'PT404';
  end if;
  if unpublish then
    if agent.status <> 'published' then
      raise exception 'Only a published agent can be unpublished' using errcode = 'PT409', hint = 'not_published';
    end if;
    update public.agents
    set status = 'draft', moderation_reason = reason, moderated_at = now(), moderated_by = actor, updated_at = now()
    where id = target;
  else
    if agent.moderation_reason is null then
      raise exception 'This agent was not unpublished by a moderator' using errcode = 'PT409', hint = 'not_moderated';
    end if;
    update public.agents
    set status = 'published', moderation_reason = null, moderated_at = now(), moderated_by = actor, updated_at = now()
    where id = target;
  end if;
  insert into public.audit_log (actor_id, action, target_type, target_id, reason, details)
  values (actor, case when unpublish then 'agent.unpublished' else 'agent.restored' end, 'agent', target, reason,
          jsonb_build_object('name', (select a.name from public.agents a where a.id = target)));
end
$$;

create or replace function public.admin_remove_review(actor uuid, target uuid, reason text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  review record;
begin
  delete from public.reviews r where r.id = target
  returning r.agent_id, r.buyer_id, r.rating, r.review_text into review;
  if not found then
    raise exception 'No such review' using errcode = 'PT404';
  end if;
  insert into public.audit_log (actor_id, action, target_type, target_id, reason, details)
  values (actor, 'review.removed', 'review', target, reason, jsonb_build_object(
    'agent_id', review.agent_id,
    'agent_name', (select a.name from public.agents a where a.id = review.agent_id),
    'author_id', review.buyer_id,
    'rating', review.rating,
    'text', review.review_text
  ));
end
$$;

revoke execute on function public.admin_change_role(uuid, uuid, text, text) from public, anon, authenticated;
revoke execute on function public.admin_set_ban(uuid, uuid, boolean, text) from public, anon, authenticated;
revoke execute on function public.admin_moderate_agent(uuid, uuid, boolean, text) from public, anon, authenticated;
revoke execute on function public.admin_remove_review(uuid, uuid, text) from public, anon, authenticated;
grant execute on function public.admin_change_role(uuid, uuid, text, text) to service_role;
grant execute on function public.admin_set_ban(uuid, uuid, boolean, text) to service_role;
grant execute on function public.admin_moderate_agent(uuid, uuid, boolean, text) to service_role;
grant execute on function public.admin_remove_review(uuid, uuid, text) to service_role;
