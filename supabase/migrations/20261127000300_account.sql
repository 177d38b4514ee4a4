-- Account self-service: profile pictures, the session
-- list, and what deleting an account keeps. This migration adds:
--   * the public bucket 'avatars' (2 MB, JPEG/PNG/GIF) with storage.objects policies that let a
--     signed-in user write only under their own folder '<user id>/…';
--   * public.my_sessions(): the caller's own Auth sessions (device, sign-in, last active);
--   * deleting a user keeps the sales: purchases.buyer_id and agents.seller_id become
--     "on delete set null" (the buyer / seller is anonymised, the record stays);
--   * the last administrator cannot be deleted (a trigger, as for demotion and bans).

-- ---------------------------------------------------------------------------------------------
-- Profile pictures: <user id>/<random>.<ext> in a public bucket; the user's own client writes
-- and removes them, the policies refuse any other folder. Anyone reads them publicly.
-- ---------------------------------------------------------------------------------------------
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('avatars', 'avatars', true, 2097152, array['image/jpeg', 'image/png', 'image/gif'])
on conflict (id) do nothing;

create policy "avatars: owner reads own folder" on storage.objects
  for select to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "avatars: owner uploads to own folder" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "avatars: owner updates own folder" on storage.objects
  for update to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "avatars: owner deletes own folder" on storage.objects
  for delete to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);

-- ---------------------------------------------------------------------------------------------
-- The caller's sessions, newest activity first. auth.sessions is not exposed through the Data
-- API; this function shows only the rows of auth.uid(). Hosted Supabase has the same columns.
-- ---------------------------------------------------------------------------------------------
create or replace function public.my_sessions()
returns table (id uuid, user_agent text, created_at timestamptz, last_active_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select s.id, s.user_agent, s.created_at, coalesce(s.refreshed_at::timestamptz, s.updated_at, s.created_at)
  from auth.sessions s
  where s.user_id = auth.uid()
  order by coalesce(s.refreshed_at::timestamptz, s.updated_at, s.created_at) desc, s.id
$$;
revoke execute on function public.my_sessions() from public, anon;
grant execute on function public.my_sessions() to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Deleting an account keeps the other side's records: a buyer's purchases stay in the seller's
-- sales with no buyer; a seller's agents that were sold stay (unpublished by the app first)
-- with no seller, so the buyers' purchases and downloads still point somewhere.
-- ---------------------------------------------------------------------------------------------
alter table public.purchases alter column buyer_id drop not null;
alter table public.purchases drop constraint purchases_buyer_id_fkey;
alter table public.purchases
  add constraint purchases_buyer_id_fkey foreign key (buyer_id) references public.users (id) on delete set null;

alter table public.agents alter column seller_id drop not null;
alter table public.agents drop constraint agents_seller_id_fkey;
alter table public.agents
  add constraint agents_seller_id_fkey foreign key (seller_id) references public.users (id) on delete set null;

-- ---------------------------------------------------------------------------------------------
-- The last administrator (not banned) cannot be deleted: the Auth user's deletion cascades here
-- and fails as a whole.
-- ---------------------------------------------------------------------------------------------
create or replace function public.guard_user_delete()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.user_type = 'admin' and old.banned_at is null then
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('public.users: active admins'));
    if not exists (
      select 1 from public.users u where u.user_type = 'admin' and u.banned_at is null and u.id <> old.id
    ) then
      raise exception 'The last administrator cannot be deleted'
        using errcode = 'PT409', hint = 'last_admin';
    end if;
  end if;
  return old;
end
$$;

create trigger users_guard_delete before delete on public.users
  for each row execute function public.guard_user_delete();
revoke execute on function public.guard_user_delete() from public, anon, authenticated;
