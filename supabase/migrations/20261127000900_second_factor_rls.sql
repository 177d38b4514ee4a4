-- Two-factor sign-in in the database too (ADR 016). A user with a verified TOTP factor whose
-- session has not passed the second step (an aal1 token: the password alone) may read and write
-- nothing through the Data API or Storage: every table with row-level security, and
-- storage.objects, gets one RESTRICTIVE policy for `authenticated` that asks for aal2 from such
-- users. The app already treats that session as signed out; this closes the direct API path.
-- Users without a verified factor are unaffected. The pattern is Supabase's documented one;
-- the factor lookup runs as definer (the API roles cannot read auth.mfa_factors) and once per
-- statement (`(select …)`), not per row.

create or replace function public.session_meets_mfa()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2'
    or not exists (
      select 1
      from auth.mfa_factors f
      where f.user_id = auth.uid()
        and f.status = 'verified'
    );
$$;
revoke all on function public.session_meets_mfa() from public;
grant execute on function public.session_meets_mfa() to anon, authenticated, service_role;

-- Adds the policy to one table; later migrations call it for every new table (a test checks).
create or replace function public.require_second_factor(target regclass)
returns void
language plpgsql
set search_path = ''
as $$
begin
  execute format(
    'create policy "second factor when enrolled" on %s as restrictive for all to authenticated '
    'using ((select public.session_meets_mfa())) with check ((select public.session_meets_mfa()))',
    target
  );
end;
$$;
revoke all on function public.require_second_factor(regclass) from public, anon, authenticated;

do $$
declare
  t record;
begin
  for t in
    select c.oid::regclass as target
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public'
      and c.relkind in ('r', 'p')
      and c.relrowsecurity
    order by c.relname
  loop
    perform public.require_second_factor(t.target);
  end loop;
end;
$$;

select public.require_second_factor('storage.objects');
