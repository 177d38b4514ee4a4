-- The last administrator rule in one place: an account is the last administrator when it is an
-- administrator, not banned, and no other administrator is. Demoting, banning and deleting it are
-- refused by the triggers below; the app asks the same function before it starts an account's
-- deletion (which archives and removes agents first), so the two can never disagree.

create or replace function public.is_last_active_admin(target uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
           select 1 from public.users u where u.id = target and u.user_type = 'admin' and u.banned_at is null
         )
     and not exists (
           select 1 from public.users u where u.user_type = 'admin' and u.banned_at is null and u.id <> target
         )
$$;
revoke execute on function public.is_last_active_admin(uuid) from public, anon;
grant execute on function public.is_last_active_admin(uuid) to authenticated, service_role;

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
    if public.is_last_active_admin(old.id) then
      raise exception 'The last administrator cannot be demoted or banned'
        using errcode = 'PT409', hint = 'last_admin';
    end if;
  end if;
  return new;
end
$$;

create or replace function public.guard_user_delete()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.user_type = 'admin' and old.banned_at is null then
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('public.users: active admins'));
    if public.is_last_active_admin(old.id) then
      raise exception 'The last administrator cannot be deleted'
        using errcode = 'PT409', hint = 'last_admin';
    end if;
  end if;
  return old;
end
$$;
