/** Fixture tables, policies and functions for the Data API contract tests (local target only). */
import type { ContractTarget } from '../support/contract-target';

export const USER_A = '11111111-1111-4111-8111-111111111111';
export const USER_B = '22222222-2222-4222-8222-222222222222';

export const FIXTURE_SQL = `
insert into auth.users (id, aud, role, email) values
  ('${USER_A}', 'authenticated', 'authenticated', 'a@example.com'),
  ('${USER_B}', 'authenticated', 'authenticated', 'b@example.com');

create table public.projects (
  id bigint generated always as identity primary key,
  name text not null,
  owner_id uuid not null references auth.users (id)
);
alter table public.projects enable row level security;
create policy "projects readable" on public.projects for select using (true);
create policy "projects own" on public.projects for all to authenticated
  using (owner_id = auth.uid()) with check (owner_id = auth.uid());

create table public.todos (
  id uuid primary key default gen_random_uuid(),
  user_id uuid default auth.uid() references auth.users (id),
  title text not null,
  done boolean default false,
  due date,
  tags text[],
  data jsonb,
  project_id bigint references public.projects (id),
  constraint title_length check (char_length(title) < 200)
);
alter table public.todos enable row level security;
create policy "owner can do everything" on public.todos for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());

create view public.todo_cards with (security_invoker = true) as
  select t.id, t.title, t.project_id as project, p.name as project_name
  from public.todos t left join public.projects p on p.id = t.project_id;

create table public.guestbook (id serial primary key, message text not null);
alter table public.guestbook enable row level security;
create policy "anyone may sign" on public.guestbook for insert to anon, authenticated with check (true);
-- The schema revokes anon writes by default (identity rules migration); this table opts in.
grant insert on public.guestbook to anon;

create function public.whoami() returns uuid language sql stable as $$ select auth.uid() $$;
create function public.claims() returns jsonb language sql stable as $$
  select jsonb_build_object(
    'claims', current_setting('request.jwt.claims', true)::jsonb,
    'method', current_setting('request.method', true),
    'client', current_setting('request.headers', true)::json ->> 'x-client-info')
$$;
create function public.noop() returns void language sql as $$ select $$;
create function public.add(a int, b int default 1) returns int language sql immutable as $$ select a + b $$;
create function public.numbers(n int) returns table (value int, label text) language sql stable as $$
  select i, 'n' || i from generate_series(1, n) i
$$;
create function public.fail(message text) returns void language plpgsql as $$
begin raise exception '%', message; end $$;
create function public.echo(payload jsonb) returns jsonb language sql immutable as $$ select payload $$;
`;

export async function installFixture(target: ContractTarget): Promise<void> {
  await target.backend!.db.exec(FIXTURE_SQL);
}

/**
 * A user's token as a trusted server would mint it: no `session_id`, since the fixture's users
 * have no Auth session (a token naming a session that does not exist is refused, ADR 020).
 */
export function userToken(target: ContractTarget, sub: string, extra: Record<string, unknown> = {}): Promise<string> {
  return target.backend!.keys.sign({ sub, role: 'authenticated', aud: 'authenticated', ...extra }, 3600);
}
