-- The demo agents' packages follow the agent package format (docs/decisions/058): in a database
-- seeded before, their versions' file_size goes back to 0, so the demo writer
-- (supabase/demo-packages.ts, at the embedded backend's start in demo mode, or
-- `npm run db:seed-packages`) writes them again, over the older manifests. Only the seed's own
-- versions (their ids are md5('version-1-' || agent id) and md5('version-2-' || agent id), of the
-- seed's agent ids): a package a seller uploaded is never touched. A new database has no such
-- rows yet: the seed comes after the migrations.
update public.agent_versions v
set file_size = 0
where v.agent_id::text like 'a0000000-0000-4000-8000-%'
  and v.id in (md5('version-1-' || v.agent_id)::uuid, md5('version-2-' || v.agent_id)::uuid)
  and v.file_size > 0;
