-- One read for what a conversation page shows around its messages (ADR 071): the two people's
-- usernames, a block between them (in this conversation or another of theirs, and where), and the
-- reader's own open report. For whoever may read the conversation (participants, with the second
-- factor when enrolled; admins while a report is open); nothing otherwise.
create function public.conversation_context(conversation uuid)
returns table (
  buyer_id uuid, buyer_username text, seller_id uuid, seller_username text,
  blocked_by uuid, blocked_in uuid, my_report_id uuid, my_report_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select c.buyer_id, b.username, c.seller_id, s.username, block.blocked_by, block.id, mine.id, mine.created_at
  from public.conversations c
  left join public.users b on b.id = c.buyer_id
  left join public.users s on s.id = c.seller_id
  left join lateral (
    select x.id, x.blocked_by from public.conversations x
    where x.blocked_by is not null
      and ((x.buyer_id = c.buyer_id and x.seller_id = c.seller_id) or (x.buyer_id = c.seller_id and x.seller_id = c.buyer_id))
    order by x.id = c.id desc, x.blocked_at
    limit 1
  ) block on true
  left join lateral (
    select r.id, r.created_at from public.conversation_reports r
    where r.conversation_id = c.id and r.reporter_id = auth.uid() and r.resolved_at is null
    limit 1
  ) mine on true
  where c.id = conversation and public.can_read_conversation(c.id)
$$;
revoke execute on function public.conversation_context(uuid) from public, anon;
grant execute on function public.conversation_context(uuid) to authenticated, service_role;

-- Its usernames were the page's only use of conversation_people.
drop function public.conversation_people(uuid);
