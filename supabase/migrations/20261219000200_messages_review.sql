-- What an attack review of the Messages pages found (ADRs 070, 071):
--   * the read rules of conversations and messages called a function for every row: one unfiltered
--     read of messages by any signed-in user scanned them all at ~60 µs a row and held the
--     embedded database for seconds. The rules are now plain column tests and index lookups;
--   * the list and name functions (security definer) did not ask for the second factor: a
--     password alone read the start of every conversation. They do now;
--   * a buyer could start one conversation per agent of a seller at once, each mailing the seller:
--     at most 10 new conversations an hour per person now (and the app mails a recipient at most
--     once a quarter hour across all their conversations);
--   * junk reports (empty conversations, over and over) could bury a real one: a report needs a
--     message to report, and a person files at most 10 reports a day;
--   * text of only format characters (zero-width joiners, direction marks, Hangul fillers, braille
--     blanks, variation selectors, tags, combining marks alone) passed as a message or a reason.

-- Whether a text has something a reader can see: anything left once whitespace, format and
-- filler characters and combining marks are taken out.
create or replace function public.visible_text(value text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when pg_catalog.char_length(pg_catalog.regexp_replace(
      coalesce(value, ''),
      '[[:space:]\u00a0\u00ad\u0300-\u036f\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e007f]',
      '',
      'g'
    )) = 0 then ''
    else pg_catalog.regexp_replace(
      coalesce(value, ''),
      '^[[:space:]\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]+|[[:space:]\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]+$',
      '',
      'g'
    )
  end
$$;

-- Reads: participants by a column test; admins (one test per statement) while a report is open.
create or replace function public.can_read_conversation(conversation uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select public.session_meets_mfa() and exists (
    select 1 from public.conversations c
    where c.id = conversation
      and (
        auth.uid() in (c.buyer_id, c.seller_id)
        or (public.is_admin() and exists (
          select 1 from public.conversation_reports r where r.conversation_id = c.id and r.resolved_at is null))
      )
  )
$$;

drop policy "conversations: participants and admins handling a report read" on public.conversations;
create policy "conversations: participants and admins handling a report read" on public.conversations
  for select to authenticated using (
    (select auth.uid()) in (buyer_id, seller_id)
    or ((select public.is_admin()) and id in (
      select r.conversation_id from public.conversation_reports r where r.resolved_at is null))
  );

drop policy "messages: readers of the conversation read" on public.messages;
create policy "messages: readers of the conversation read" on public.messages
  for select to authenticated using (
    conversation_id in (
      select c.id from public.conversations c where (select auth.uid()) in (c.buyer_id, c.seller_id))
    or ((select public.is_admin()) and conversation_id in (
      select r.conversation_id from public.conversation_reports r where r.resolved_at is null))
  );

-- When each participant was mailed is the server's business, not the other participant's.
revoke select on public.conversations from authenticated;
grant select (id, agent_id, buyer_id, seller_id, created_at, last_message_at, buyer_read_at, seller_read_at,
  blocked_by, blocked_at) on public.conversations to authenticated;

create or replace function public.my_conversations(page_from integer default 0, page_size integer default 25)
returns table (
  id uuid, agent_id uuid, agent_name text, other_id uuid, other_username text, role text,
  last_message_at timestamptz, last_message text, last_sender_id uuid, unread bigint, blocked_by uuid,
  total bigint
)
language sql
stable
security definer
set search_path = ''
as $$
  with mine as (
    select c.*, case when c.buyer_id = auth.uid() then 'buyer' else 'seller' end as my_role
    from public.conversations c
    where public.session_meets_mfa()
      and auth.uid() in (c.buyer_id, c.seller_id)
      and (c.buyer_id = auth.uid() or exists (select 1 from public.messages x where x.conversation_id = c.id))
  )
  select m.id, m.agent_id, a.name, o.id, o.username, m.my_role, m.last_message_at,
    pg_catalog.left(last.body, 140), last.sender_id,
    (select pg_catalog.count(*) from public.messages x
      where x.conversation_id = m.id and x.sender_id is distinct from auth.uid()
        and x.created_at > case when m.my_role = 'buyer' then m.buyer_read_at else m.seller_read_at end),
    m.blocked_by,
    pg_catalog.count(*) over ()
  from mine m
  left join public.agents a on a.id = m.agent_id
  left join public.users o on o.id = case when m.my_role = 'buyer' then m.seller_id else m.buyer_id end
  left join lateral (
    select x.body, x.sender_id from public.messages x
    where x.conversation_id = m.id
    order by x.created_at desc, x.id desc
    limit 1
  ) last on true
  order by m.last_message_at desc, m.id
  offset greatest(coalesce(page_from, 0), 0) limit least(greatest(coalesce(page_size, 25), 1), 100)
$$;

create or replace function public.my_unread_conversations()
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.count(*) from public.conversations c
  where public.session_meets_mfa()
    and auth.uid() in (c.buyer_id, c.seller_id)
    and exists (
      select 1 from public.messages x
      where x.conversation_id = c.id and x.sender_id is distinct from auth.uid()
        and x.created_at > case when c.buyer_id = auth.uid() then c.buyer_read_at else c.seller_read_at end
    )
$$;

create or replace function public.conversation_people(conversation uuid)
returns table (buyer_id uuid, buyer_username text, seller_id uuid, seller_username text)
language sql
stable
security definer
set search_path = ''
as $$
  select c.buyer_id, b.username, c.seller_id, s.username
  from public.conversations c
  left join public.users b on b.id = c.buyer_id
  left join public.users s on s.id = c.seller_id
  where c.id = conversation and public.can_read_conversation(c.id)
$$;

-- At most 10 new conversations an hour per person (asking again about the same agent is free).
create index conversations_buyer_created_idx on public.conversations (buyer_id, created_at);

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
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('start_conversation:' || me::text));
  if (select pg_catalog.count(*) from public.conversations c
       where c.buyer_id = me and c.created_at > pg_catalog.clock_timestamp() - interval '1 hour') >= 10 then
    raise exception 'You started many conversations in the last hour. Wait a while, then try again.'
      using errcode = 'PT429';
  end if;
  insert into public.conversations (agent_id, buyer_id, seller_id, created_at)
    values (agent, me, seller, pg_catalog.clock_timestamp())
    on conflict (buyer_id, seller_id, agent_id) do nothing
    returning id into conversation;
  if conversation is null then
    select c.id into conversation from public.conversations c
      where c.buyer_id = me and c.seller_id = seller and c.agent_id = agent;
  end if;
  return conversation;
end
$$;

-- A report is of messages, at most 10 a day per person.
create index conversation_reports_reporter_idx on public.conversation_reports (reporter_id, created_at);

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
  if not exists (select 1 from public.messages m where m.conversation_id = talk.id and m.sender_id is distinct from me) then
    raise exception 'There is no message of the other person to report' using errcode = 'PT409';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('report_conversation:' || me::text));
  if (select pg_catalog.count(*) from public.conversation_reports r
       where r.reporter_id = me and r.created_at > pg_catalog.clock_timestamp() - interval '1 day') >= 10 then
    raise exception 'You reported many conversations today. Wait a day, or contact us.' using errcode = 'PT429';
  end if;
  insert into public.conversation_reports (conversation_id, reporter_id, reason, created_at)
    values (talk.id, me, why, pg_catalog.clock_timestamp()) returning id into report;
  return report;
end
$$;
