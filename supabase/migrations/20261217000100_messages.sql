-- Messages between a buyer and a seller about an agent (ADR 070). A conversation belongs to its
-- two participants: only they read it, and an admin reads one only while a report on it is open.
-- Every change goes through a function that checks who asks (the tables take no direct writes
-- from the API roles):
--   start_conversation(agent)          a signed-in user about a published agent of another seller;
--                                      the same agent asked again is the same conversation
--   send_message(conversation, body)   a participant, 1 to 5,000 characters, not while blocked,
--                                      at most 20 messages a minute (SQLSTATE PT429)
--   mark_conversation_read(conversation)
--   set_conversation_blocked(conversation, blocked)   a participant blocks the other (and only
--                                      the one who blocked unblocks)
--   report_conversation(conversation, reason)         a participant asks an admin to look
--   resolve_conversation_report(report)               an admin closes a report
-- Links in a message are text: the app never renders a message as HTML.

create table public.conversations (
  id uuid primary key default gen_random_uuid(),
  agent_id uuid references public.agents (id) on delete set null,
  buyer_id uuid not null references public.users (id) on delete cascade,
  seller_id uuid not null references public.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  last_message_at timestamptz not null default now(),
  buyer_read_at timestamptz not null default now(),
  seller_read_at timestamptz not null default now(),
  -- When each participant was last emailed about new messages (at most one notice a quarter hour).
  buyer_notified_at timestamptz,
  seller_notified_at timestamptz,
  blocked_by uuid references public.users (id) on delete set null,
  blocked_at timestamptz,
  constraint conversations_two_people check (buyer_id <> seller_id),
  constraint conversations_blocked_by_participant check (blocked_by is null or blocked_by in (buyer_id, seller_id))
);
create unique index conversations_one_per_agent on public.conversations (buyer_id, seller_id, agent_id) nulls not distinct;
create index conversations_buyer_idx on public.conversations (buyer_id, last_message_at desc);
create index conversations_seller_idx on public.conversations (seller_id, last_message_at desc);

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  sender_id uuid references public.users (id) on delete set null,
  body text not null constraint messages_body_length check (char_length(body) between 1 and 5000),
  created_at timestamptz not null default now()
);
create index messages_conversation_idx on public.messages (conversation_id, created_at, id);
create index messages_sender_recent_idx on public.messages (sender_id, created_at);

create table public.conversation_reports (
  id uuid primary key default gen_random_uuid(),
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  reporter_id uuid references public.users (id) on delete set null,
  reason text not null constraint conversation_reports_reason_length check (char_length(reason) between 1 and 500),
  created_at timestamptz not null default now(),
  resolved_at timestamptz,
  resolved_by uuid references public.users (id) on delete set null
);
create index conversation_reports_open_idx on public.conversation_reports (conversation_id) where resolved_at is null;

-- Who may read a conversation: its participants, and admins while a report on it is open.
create function public.can_read_conversation(conversation uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.conversations c
    where c.id = conversation
      and (
        auth.uid() in (c.buyer_id, c.seller_id)
        or (public.is_admin() and exists (
          select 1 from public.conversation_reports r where r.conversation_id = c.id and r.resolved_at is null))
      )
  )
$$;
revoke execute on function public.can_read_conversation(uuid) from public, anon;
grant execute on function public.can_read_conversation(uuid) to authenticated, service_role;

alter table public.conversations enable row level security;
create policy "conversations: participants and admins handling a report read" on public.conversations
  for select to authenticated using (public.can_read_conversation(id));
select public.require_second_factor('public.conversations');
revoke all on public.conversations from anon, authenticated;
grant select on public.conversations to authenticated;
grant all on public.conversations to service_role;

alter table public.messages enable row level security;
create policy "messages: readers of the conversation read" on public.messages
  for select to authenticated using (public.can_read_conversation(conversation_id));
select public.require_second_factor('public.messages');
revoke all on public.messages from anon, authenticated;
grant select on public.messages to authenticated;
grant all on public.messages to service_role;

alter table public.conversation_reports enable row level security;
create policy "conversation_reports: the reporter and admins read" on public.conversation_reports
  for select to authenticated using (reporter_id = (select auth.uid()) or public.is_admin());
select public.require_second_factor('public.conversation_reports');
revoke all on public.conversation_reports from anon, authenticated;
grant select on public.conversation_reports to authenticated;
grant all on public.conversation_reports to service_role;

-- The signed-in user, or an insufficient_privilege error (and the second-factor rule).
create function public.messaging_user()
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
begin
  if me is null or not public.session_meets_mfa() then
    raise exception 'Sign in to send messages' using errcode = '42501';
  end if;
  return me;
end
$$;
revoke execute on function public.messaging_user() from public, anon, authenticated;

-- The conversation if the signed-in user takes part in it (else no_data_found, as if it did not exist).
create function public.own_conversation(conversation uuid)
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
    raise exception 'This conversation does not exist or is not yours' using errcode = 'P0002';
  end if;
  return found_row;
end
$$;
revoke execute on function public.own_conversation(uuid) from public, anon, authenticated;

-- Records that `reader` has read the conversation up to this moment (the statement's, not the
-- transaction's: messages and reads in one transaction keep their order).
create function public.conversation_read_now(conversation uuid, reader uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.conversations c
    set buyer_read_at = case when reader = c.buyer_id then pg_catalog.clock_timestamp() else c.buyer_read_at end,
        seller_read_at = case when reader = c.seller_id then pg_catalog.clock_timestamp() else c.seller_read_at end
    where c.id = conversation
$$;
revoke execute on function public.conversation_read_now(uuid, uuid) from public, anon, authenticated;

create function public.start_conversation(agent uuid)
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
    raise exception 'This agent does not exist or is not published' using errcode = 'P0002';
  end if;
  if seller = me then
    raise exception 'This is your own agent' using errcode = '22023';
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

create function public.send_message(conversation uuid, body text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := public.messaging_user();
  talk public.conversations := public.own_conversation(conversation);
  text_sent text := pg_catalog.btrim(coalesce(body, ''));
  message uuid;
begin
  if talk.blocked_by is not null then
    raise exception 'This conversation is blocked: no new messages can be sent' using errcode = 'PT403';
  end if;
  if pg_catalog.char_length(text_sent) = 0 or pg_catalog.char_length(text_sent) > 5000 then
    raise exception 'A message is 1 to 5,000 characters' using errcode = '22023';
  end if;
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

create function public.mark_conversation_read(conversation uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := public.messaging_user();
  talk public.conversations := public.own_conversation(conversation);
begin
  perform public.conversation_read_now(talk.id, me);
end
$$;

create function public.set_conversation_blocked(conversation uuid, blocked boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := public.messaging_user();
  talk public.conversations := public.own_conversation(conversation);
begin
  if blocked then
    if talk.blocked_by is null then
      update public.conversations set blocked_by = me, blocked_at = now() where id = talk.id;
    end if;
  elsif talk.blocked_by = me then
    update public.conversations set blocked_by = null, blocked_at = null where id = talk.id;
  elsif talk.blocked_by is not null then
    raise exception 'Only the one who blocked this conversation can unblock it' using errcode = 'PT403';
  end if;
end
$$;

create function public.report_conversation(conversation uuid, reason text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := public.messaging_user();
  talk public.conversations := public.own_conversation(conversation);
  why text := pg_catalog.btrim(coalesce(reason, ''));
  report uuid;
begin
  if pg_catalog.char_length(why) = 0 or pg_catalog.char_length(why) > 500 then
    raise exception 'Say why in 1 to 500 characters' using errcode = '22023';
  end if;
  insert into public.conversation_reports (conversation_id, reporter_id, reason)
    values (talk.id, me, why) returning id into report;
  return report;
end
$$;

create function public.resolve_conversation_report(report uuid)
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
    raise exception 'This report does not exist or is closed already' using errcode = 'P0002';
  end if;
end
$$;

-- The signed-in user's conversations, newest first, each with the other person, the agent and
-- how many messages they have not read.
create function public.my_conversations(page_from integer default 0, page_size integer default 25)
returns table (
  id uuid, agent_id uuid, agent_name text, other_id uuid, other_username text, role text,
  last_message_at timestamptz, unread bigint, blocked_by uuid, total bigint
)
language sql
stable
security definer
set search_path = ''
as $$
  with mine as (
    select c.*, case when c.buyer_id = auth.uid() then 'buyer' else 'seller' end as my_role
    from public.conversations c
    where auth.uid() in (c.buyer_id, c.seller_id)
  )
  select m.id, m.agent_id, a.name, o.id, o.username, m.my_role, m.last_message_at,
    (select pg_catalog.count(*) from public.messages x
      where x.conversation_id = m.id and x.sender_id is distinct from auth.uid()
        and x.created_at > case when m.my_role = 'buyer' then m.buyer_read_at else m.seller_read_at end),
    m.blocked_by,
    pg_catalog.count(*) over ()
  from mine m
  left join public.agents a on a.id = m.agent_id
  left join public.users o on o.id = case when m.my_role = 'buyer' then m.seller_id else m.buyer_id end
  order by m.last_message_at desc, m.id
  offset greatest(coalesce(page_from, 0), 0) limit least(greatest(coalesce(page_size, 25), 1), 100)
$$;

do $$
declare
  fn text;
begin
  foreach fn in array array[
    'public.start_conversation(uuid)', 'public.send_message(uuid, text)', 'public.mark_conversation_read(uuid)',
    'public.set_conversation_blocked(uuid, boolean)', 'public.report_conversation(uuid, text)',
    'public.resolve_conversation_report(uuid)', 'public.my_conversations(integer, integer)'
  ] loop
    execute pg_catalog.format('revoke execute on function %s from public, anon', fn);
    execute pg_catalog.format('grant execute on function %s to authenticated, service_role', fn);
  end loop;
end
$$;
