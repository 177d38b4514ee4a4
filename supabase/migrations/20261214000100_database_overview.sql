-- What the Database page shows an administrator (ADR 067): the migrations this database has
-- applied, and the size and row count of each table of the app's schemas. Read-only, for admins
-- whose session meets the second-factor rule; any other caller gets an insufficient_privilege
-- error. The migrations are those `supabase_migrations.schema_migrations` records (the embedded
-- backend and the Supabase CLI both keep it); a database without that table answers null.
--
-- Row counts are exact up to a million rows (the planner's estimate beyond, marked `exact: false`),
-- so that the page stays quick on a large hosted database.
create function public.admin_database_overview()
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  migrations json;
  item record;
  counted bigint;
  entries jsonb := '[]'::jsonb;
begin
  if not (public.is_admin() and public.session_meets_mfa()) then
    raise exception 'Only an administrator sees the database''s state' using errcode = '42501';
  end if;

  if pg_catalog.to_regclass('supabase_migrations.schema_migrations') is not null then
    execute 'select coalesce(pg_catalog.json_agg(pg_catalog.json_build_object(''version'', m.version, ''name'', m.name)
               order by m.version), ''[]''::json)
             from supabase_migrations.schema_migrations m'
      into migrations;
  end if;

  for item in
    select n.nspname as schema_name, c.relname as table_name, c.oid as relation,
           c.reltuples::bigint as estimate, pg_catalog.pg_total_relation_size(c.oid) as bytes
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and n.nspname in ('public', 'auth', 'storage')
    order by n.nspname, c.relname
  loop
    if item.estimate < 1000000 then
      execute pg_catalog.format('select pg_catalog.count(*) from %I.%I', item.schema_name, item.table_name)
        into counted;
    else
      counted := item.estimate;
    end if;
    entries := entries || pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object(
      'schema', item.schema_name,
      'name', item.table_name,
      'rows', counted,
      'exact', item.estimate < 1000000,
      'bytes', item.bytes
    ));
  end loop;

  return pg_catalog.json_build_object(
    'migrations', migrations,
    'tables', entries,
    'databaseBytes', pg_catalog.pg_database_size(pg_catalog.current_database()),
    'serverVersion', pg_catalog.current_setting('server_version')
  );
end
$$;

revoke execute on function public.admin_database_overview() from public, anon;
grant execute on function public.admin_database_overview() to authenticated, service_role;

-- A backup downloaded from the Database page is written to the audit log: who, when, and its size
-- (the app writes it with the service role once the backup is made; target_id is the backup's own
-- id, in its file name).
alter table public.audit_log drop constraint audit_log_action_check;
alter table public.audit_log add constraint audit_log_action_check check (action in (
  'user.role_changed', 'user.banned', 'user.unbanned', 'agent.unpublished', 'agent.restored', 'review.removed',
  'settings.changed', 'database.backed_up'
));
alter table public.audit_log drop constraint audit_log_target_type_check;
alter table public.audit_log add constraint audit_log_target_type_check
  check (target_type in ('user', 'agent', 'review', 'settings', 'database'));
