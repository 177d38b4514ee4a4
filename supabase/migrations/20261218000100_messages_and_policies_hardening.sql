-- What an attack review of messages and policies found (ADRs 069, 070):
--   * a block held one conversation only: the blocked buyer started another about another agent
--     of the same seller. A block now stands between the two people, in every conversation;
--   * parallel sends on a PostgreSQL server each counted the minute's messages before any had
--     committed: the count is now taken under a per-sender lock;
--   * a message or a reason of only invisible characters (no-break or zero-width spaces) passed;
--   * deleting two agents a buyer had asked about collided in the one-per-agent index (both
--     conversations' agent became null): the index now leaves those apart;
--   * "not found or not yours" was SQLSTATE P0002, which the Data API answers with HTTP 500: it
--     is PT404 now;
--   * the Seller Policy (and the Terms) were asked before a listing change only by the app: the
--     database now refuses an agent's insert or change by a user who has a newer one to accept.

drop index public.conversations_one_per_agent;
create unique index conversations_one_per_agent on public.conversations (buyer_id, seller_id, agent_id);

-- Text without what a reader cannot see at either end: whitespace, no-break and zero-width spaces.
create function public.visible_text(value text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.regexp_replace(
    coalesce(value, ''),
    '^[[:space:]\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]+|[[:space:]\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]+$',
    '',
    'g'
  )
$$;

-- Whether either of two people blocked the other, in any conversation between them.
create function public.blocked_between(one uuid, other uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.conversations c
    where c.blocked_by is not null
      and ((c.buyer_id = one and c.seller_id = other) or (c.buyer_id = other and c.seller_id = one))
  )
$$;
revoke execute on function public.blocked_between(uuid, uuid) from public, anon, authenticated;

create or replace function public.own_conversation(conversation uuid)
returns public.conversations
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := public.messaging_user();
  found_row public.conversations;
begin
  select * into found_row from public.conversations c where c.id = conversation and me in (c.buyer_id, c.seller_id);
  if not found then
    raise exception 'This conversation does not exist or is not yours' using errcode = 'PT404';
  end if;
  return found_row;
end
$$;

create or replace function public.start_conversation(agent uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := public.messaging_user();
  seller uuid;
  conversation uuid;
begin
  select a.seller_id into seller from public.agents a where a.id = agent and a.status = 'published';
  if seller is null then
    raise exception 'This agent does not exist or is not published' using errcode = 'PT404';
  end if;
  if seller = me then
    raise exception 'This is your own agent' using errcode = '22023';
  end if;
  select c.id into conversation from public.conversations c
    where c.buyer_id = me and c.seller_id = seller and c.agent_id = agent;
  if conversation is not null then
    return conversation;
  end if;
  if public.blocked_between(me, seller) then
    raise exception 'You and this seller cannot message each other' using errcode = 'PT403';
  end if;
  insert into public.conversations (agent_id, buyer_id, seller_id)
    values (agent, me, seller)
    on conflict (buyer_id, seller_id, agent_id) do nothing
    returning id into conversation;
  if conversation is null then
    select c.id into conversation from public.conversations c
      where c.buyer_id = me and c.seller_id = seller and c.agent_id = agent;
  end if;
  return conversation;
end
$$;

create or replace function public.send_message(conversation uuid, body text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := public.messaging_user();
  talk public.conversations := public.own_conversation(conversation);
  text_sent text := public.visible_text(body);
  message uuid;
begin
  if talk.blocked_by is not null or public.blocked_between(talk.buyer_id, talk.seller_id) then
    raise exception 'This conversation is blocked: no new messages can be sent' using errcode = 'PT403';
  end if;
  if pg_catalog.char_length(text_sent) = 0 or pg_catalog.char_length(text_sent) > 5000 then
    raise exception 'A message is 1 to 5,000 characters' using errcode = '22023';
  end if;
  -- One send of this sender at a time, so that the count sees every message sent before it.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('send_message:' || me::text));
  if (select pg_catalog.count(*) from public.messages m
       where m.sender_id = me and m.created_at > pg_catalog.clock_timestamp() - interval '1 minute') >= 20 then
    raise exception 'You are sending messages too fast. Wait a minute, then send again.' using errcode = 'PT429';
  end if;
  insert into public.messages (conversation_id, sender_id, body, created_at)
    values (talk.id, me, text_sent, pg_catalog.clock_timestamp())
    returning id into message;
  update public.conversations set last_message_at = pg_catalog.clock_timestamp() where id = talk.id;
  perform public.conversation_read_now(talk.id, me);
  return message;
end
$$;

create or replace function public.report_conversation(conversation uuid, reason text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := public.messaging_user();
  talk public.conversations := public.own_conversation(conversation);
  why text := public.visible_text(reason);
  report uuid;
begin
  if pg_catalog.char_length(why) = 0 or pg_catalog.char_length(why) > 500 then
    raise exception 'Say why in 1 to 500 characters' using errcode = '22023';
  end if;
  -- One open report per person and conversation: a second one adds nothing for the admins.
  select r.id into report from public.conversation_reports r
    where r.conversation_id = talk.id and r.reporter_id = me and r.resolved_at is null;
  if report is not null then
    return report;
  end if;
  insert into public.conversation_reports (conversation_id, reporter_id, reason)
    values (talk.id, me, why) returning id into report;
  return report;
end
$$;

create or replace function public.resolve_conversation_report(report uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not (public.is_admin() and public.session_meets_mfa()) then
    raise exception 'Only an administrator handles reports' using errcode = '42501';
  end if;
  update public.conversation_reports
    set resolved_at = now(), resolved_by = auth.uid()
    where id = report and resolved_at is null;
  if not found then
    raise exception 'This report does not exist or is closed already' using errcode = 'PT404';
  end if;
end
$$;

-- A user's own listing changes wait for the policies they have to accept (the app asks on
-- /policies/accept first; this holds for the Data API too). Admins' moderation and the service
-- role are not a user's listing change.
create function public.agents_need_accepted_policies()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user = 'authenticated' and exists (select 1 from public.pending_policies()) then
    raise exception 'Accept the updated policies first (/policies/accept)' using errcode = 'PT403';
  end if;
  return new;
end
$$;
revoke execute on function public.agents_need_accepted_policies() from public, anon, authenticated;
create trigger agents_need_accepted_policies before insert or update on public.agents
  for each row execute function public.agents_need_accepted_policies();
