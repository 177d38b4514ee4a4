-- The conversation list of the Messages pages (ADR 070): each conversation with the start of its
-- last message, and a seller's list without the conversations a buyer opened but has not written
-- in yet (the buyer sees theirs, to finish the first message).

drop function public.my_conversations(integer, integer);

create function public.my_conversations(page_from integer default 0, page_size integer default 25)
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
    where auth.uid() in (c.buyer_id, c.seller_id)
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
revoke execute on function public.my_conversations(integer, integer) from public, anon;
grant execute on function public.my_conversations(integer, integer) to authenticated, service_role;

-- How many of the signed-in user's conversations have messages they have not read (the
-- navigation's count), on the same rules as the list.
create function public.my_unread_conversations()
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select pg_catalog.count(*) from public.conversations c
  where auth.uid() in (c.buyer_id, c.seller_id)
    and exists (
      select 1 from public.messages x
      where x.conversation_id = c.id and x.sender_id is distinct from auth.uid()
        and x.created_at > case when c.buyer_id = auth.uid() then c.buyer_read_at else c.seller_read_at end
    )
$$;
revoke execute on function public.my_unread_conversations() from public, anon;
grant execute on function public.my_unread_conversations() to authenticated, service_role;

-- The two people of a conversation by username, for whoever may read it (a buyer who never
-- bought or reviewed is not in public_profiles, yet the seller they write to sees their name).
create function public.conversation_people(conversation uuid)
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
revoke execute on function public.conversation_people(uuid) from public, anon;
grant execute on function public.conversation_people(uuid) to authenticated, service_role;
