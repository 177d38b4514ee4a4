-- Update notices (ADR 075): a buyer sees "Update available" on an agent in My Collection when its
-- latest version came out after they bought it and they have not downloaded that version yet.
-- Derived from what is stored (purchases, agent_versions, downloads): nothing to keep in step.

create function public.agent_updates(agent_ids uuid[])
returns table (agent_id uuid, latest_version text, update_available boolean)
language sql
stable
security invoker
set search_path = ''
as $$
  select v.agent_id, v.version,
    exists (
      select 1 from public.purchases p
      where p.buyer_id = (select auth.uid()) and p.agent_id = v.agent_id and p.status = 'completed'
        and p.created_at < v.created_at
    )
    and not exists (
      select 1 from public.downloads d
      where d.buyer_id = (select auth.uid()) and d.agent_id = v.agent_id and d.version_id = v.id
    )
  from (
    select distinct on (av.agent_id) av.agent_id, av.id, av.version, av.created_at
    from public.agent_versions av
    where av.agent_id = any (agent_ids[1:100])
    order by av.agent_id, av.created_at desc, av.id desc
  ) v;
$$;
revoke execute on function public.agent_updates(uuid[]) from public, anon;
grant execute on function public.agent_updates(uuid[]) to authenticated, service_role;

-- The buyers to tell of a new version: those with a completed purchase of the agent whose email
-- notifications are on (service role: their addresses).
create function public.agent_update_recipients(agent uuid)
returns table (email text, username text)
language sql
stable
set search_path = ''
as $$
  select distinct u.email, u.username
  from public.purchases p
  join public.users u on u.id = p.buyer_id
  left join public.user_settings s on s.user_id = u.id
  where p.agent_id = agent and p.status = 'completed' and u.email is not null and u.banned_at is null
    and coalesce(s.email_notifications, true);
$$;
revoke execute on function public.agent_update_recipients(uuid) from public, anon, authenticated;
grant execute on function public.agent_update_recipients(uuid) to service_role;
