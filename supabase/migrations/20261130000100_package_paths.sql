-- Package files: a version's file fields are written only by trusted server code, and only
-- inside the agent's own folder of the private bucket 'agent-packages'.
--   * agent_versions is written by the service role alone (the app, after it checked that the
--     seller owns the agent): the seller's insert through the Data API goes, with its policy.
--   * file_path is <seller_id>/<agent_id>/<version>/<file name>, the file name of letters,
--     digits, dot, dash and underscore, not starting with a dot, never two dots in a row (a check
--     on the characters), and its folders are the agent's seller, the agent and the version (a
--     trigger). app/lib/package-path.ts is the same rule in TypeScript; the download checks it
--     again before it reads Storage.
--   * The demo packages of an existing database move from demo/<agent_id>/<version>/ to the same
--     folders; their file_size goes back to 0, so the demo writer (supabase/demo-packages.ts, at
--     the embedded backend's start or `npm run db:seed-packages`) writes them there again.
--   * An agent is published through the Data API only once it has a package version.

drop policy "agent_versions: seller adds to own agent" on public.agent_versions;
revoke insert, update, delete, truncate on public.agent_versions from anon, authenticated;

update public.agent_versions v
set file_path = a.seller_id || '/' || a.id || '/' || v.version || '/' || split_part(v.file_path, '/', 4),
    file_size = 0
from public.agents a
where a.id = v.agent_id
  and v.file_path = 'demo/' || a.id || '/' || v.version || '/' || split_part(v.file_path, '/', 4);

-- Not validated against rows written before this rule (a path from an older release stays as it
-- is; the download refuses to read one that breaks the rule); every new or changed row obeys it.
alter table public.agent_versions add constraint agent_versions_file_path_safe check (
  file_path ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[0-9]{1,4}(\.[0-9]{1,4}){1,2}/[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$'
  and position('..' in file_path) = 0
) not valid;

create or replace function public.guard_agent_version_file()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  folder text;
begin
  select a.seller_id || '/' || a.id || '/' || new.version || '/' into folder
  from public.agents a where a.id = new.agent_id;
  if folder is null
     or left(new.file_path, length(folder)) <> folder
     or position('/' in substr(new.file_path, length(folder) + 1)) > 0 then
    raise exception 'A package file lives in its agent''s folder: <seller_id>/<agent_id>/<version>/<file name>'
      using errcode = '23514', hint = 'package_path';
  end if;
  return new;
end
$$;

create trigger agent_versions_guard_file before insert or update of file_path, agent_id, version
  on public.agent_versions for each row execute function public.guard_agent_version_file();
revoke execute on function public.guard_agent_version_file() from public, anon, authenticated;

-- Security invoker on purpose: current_user is the writing role. A seller (or an admin) sees the
-- agent's versions under their own row-level security; trusted server code and the database's
-- owner (migrations, the seed) are not limited here.
create or replace function public.guard_agent_publish()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated')
     and new.status = 'published'
     and (tg_op = 'INSERT' or old.status is distinct from 'published')
     and not exists (select 1 from public.agent_versions v where v.agent_id = new.id) then
    raise exception 'An agent is published only once it has a package version'
      using errcode = '23514', hint = 'package_required';
  end if;
  return new;
end
$$;

create trigger agents_guard_publish before insert or update of status on public.agents
  for each row execute function public.guard_agent_publish();
revoke execute on function public.guard_agent_publish() from public, anon, authenticated;
