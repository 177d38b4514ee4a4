-- Reserved usernames compared without their underscores: `_admin`, `admin_`, `sup_port` and
-- `a_d_m_i_n` read as the reserved name they spell, so they are refused as it is. Names that only
-- contain a reserved word (`admin_fan`, `helpful_agents`) and the numbered names sign-up makes
-- (`admin_1`) stay available. Only the comparison changes; the look-alike skeleton that keeps
-- usernames apart from each other is unchanged.

create or replace function public.is_reserved_username(name text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select exists (
    select 1
    from pg_catalog.unnest(array[
      'admin', 'administrator', 'root', 'system', 'sysadmin', 'superuser', 'owner', 'staff', 'team',
      'moderator', 'mod', 'support', 'help', 'helpdesk', 'security', 'billing', 'payments',
      'official', 'marketplace', 'api', 'www', 'mail', 'email', 'noreply', 'no_reply', 'postmaster',
      'hostmaster', 'webmaster', 'abuse', 'info', 'contact', 'legal', 'privacy', 'terms', 'null',
      'undefined', 'anonymous', 'service_role', 'authenticated', 'supabase'
    ]) as reserved(word)
    where pg_catalog.replace(pg_catalog.lower(pg_catalog.btrim(name)), '_', '') = pg_catalog.replace(reserved.word, '_', '')
       or pg_catalog.replace(public.username_skeleton(pg_catalog.btrim(name)), '_', '') in (
            pg_catalog.replace(public.username_skeleton(reserved.word), '_', ''),
            pg_catalog.replace(public.username_skeleton(pg_catalog.upper(reserved.word)), '_', '')
          )
  )
$$;
