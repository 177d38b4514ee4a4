-- The agent page without a database write or an uncached read per anonymous visit (ADR 028).
--
--   * public.record_agent_views(views): the views the app server gathered over a fraction of a
--     second, written in one statement (one row per visitor, agent and UTC day, as before).
--     Replaces record_agent_view(), which wrote one view per call. Service role only.
--   * agent_versions joins the tables whose changes the app's shared catalogue reads hear of
--     (20261129000100_shared_state.sql): a visitor's changelog is shared between requests now.

create function public.record_agent_views(views jsonb)
returns integer
language sql
volatile
security invoker
set search_path = ''
as $$
  -- Published agents only, never the seller's own view; a view already counted that day is
  -- skipped (also a repeat inside one batch). Returns how many views were new.
  with added as (
    insert into public.agent_views (agent_id, day, visitor_id, signed_in)
    select a.id, (now() at time zone 'utc')::date, v.visitor_id, coalesce(v.signed_in, false)
    from jsonb_to_recordset(coalesce(record_agent_views.views, '[]'::jsonb))
      as v (agent_id uuid, visitor_id uuid, signed_in boolean)
    join public.agents a on a.id = v.agent_id
    where v.visitor_id is not null
      and a.status = 'published'
      and not a.seller_banned
      and a.seller_id <> v.visitor_id
    on conflict do nothing
    returning 1
  )
  select count(*)::integer from added
$$;
revoke execute on function public.record_agent_views(jsonb) from public, anon, authenticated;
grant execute on function public.record_agent_views(jsonb) to service_role;

drop function public.record_agent_view(uuid, uuid, boolean);

create trigger agent_versions_notify_catalogue after insert or update or delete on public.agent_versions
  for each statement execute function public.notify_catalogue_change();
