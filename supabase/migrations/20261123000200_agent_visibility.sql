-- Who may see an agent: one rule, here, used by the agents' read policy and by the app.
--
--   * a published agent: everyone;
--   * its seller and admins: always (drafts stay private to them);
--   * a buyer with a purchase of the agent in any status (completed, pending, failed, refunded)
--     keeps read access once it is archived: they paid, are paying or tried to, and their
--     purchase history links to it. Never to a draft.
--
-- SECURITY DEFINER so that the purchase check does not recurse through the purchases policies.

create or replace function public.can_view_agent(agent_status text, agent_seller_id uuid, target_agent_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select agent_status = 'published'
    or (auth.uid() is not null and (
      agent_seller_id = auth.uid()
      or public.is_admin()
      or (agent_status <> 'draft' and exists (
        select 1 from public.purchases p where p.agent_id = target_agent_id and p.buyer_id = auth.uid()
      ))
    ))
$$;

revoke execute on function public.can_view_agent(text, uuid, uuid) from public;
grant execute on function public.can_view_agent(text, uuid, uuid) to anon, authenticated, service_role;

drop policy if exists "agents: anyone reads published" on public.agents;
drop policy if exists "agents: seller reads own" on public.agents;
drop policy if exists "agents: buyer reads purchased" on public.agents;
drop policy if exists "agents: admin reads all" on public.agents;

-- `status = 'published'` is spelled out beside the call only so that the planner can use the
-- status indexes for catalogue reads; the function is the whole rule.
create policy "agents: readable per can_view_agent" on public.agents
  for select to anon, authenticated
  using (status = 'published' or public.can_view_agent(status, seller_id, id));
