/**
 * Row-level security derived from the catalog, never from a hand list of tables:
 * - every table of an exposed schema (and Storage's) has RLS on, every view runs as its caller
 *   (`security_invoker`) or is the one definer view whose every row is checked against its rule;
 * - a generated matrix over every table: anonymous, another member (a fresh account that owns
 *   nothing) and the owner, through the Data API: the member reads nothing of others that the
 *   public cannot read, and neither anonymous nor the member updates, deletes or inserts a single
 *   row of anyone else's; the same through Storage for every bucket's objects.
 * Runs on the seeded embedded backend (tables' owners are the columns referencing a user).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';
import { recordTally } from '../support/security-tally';

const EXPOSED_SCHEMAS = ['public', 'graphql_public']; // packages/supabase-embedded/src/rest/handler.ts
const DEMO = {
  buyer: { id: '00000000-0000-4000-8000-000000000001', email: 'buyer@demo.test' },
  seller: { id: '00000000-0000-4000-8000-000000000002', email: 'seller@demo.test' },
  admin: { id: '00000000-0000-4000-8000-000000000003', email: 'admin@demo.test' },
};
/** Rows tried per table and attack (the whole table is read). */
const ROWS_PER_TABLE = 3;

let target: ContractTarget;
let member: { id: string; token: string };
const tokens = new Map<string, string>(); // user id → access token

async function signIn(email: string, password: string) {
  const { data, error } = await anonClient(target).auth.signInWithPassword({ email, password });
  if (error) throw error;
  return { id: data.user.id, token: data.session.access_token };
}

beforeAll(async () => {
  target = await startContractTarget({ seed: true });
  for (const { email } of Object.values(DEMO)) {
    const { id, token } = await signIn(email, 'demo-password');
    tokens.set(id, token);
  }
  const email = `rls-member-${Date.now()}@example.com`;
  const created = await serviceClient(target).auth.admin.createUser({
    email,
    password: 'rls-member-password',
    email_confirm: true,
    user_metadata: { username: `rlsmember${Date.now()}` },
  });
  if (created.error) throw created.error;
  member = await signIn(email, 'rls-member-password');
});
afterAll(() => target?.close());

const sql = async <T>(query: string, params: unknown[] = []) => (await target.backend!.db.query<T>(query, params)).rows;

function rest(path: string, token: string | null, init: RequestInit & { prefer?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('apikey', target.anonKey);
  headers.set('authorization', `Bearer ${token ?? target.anonKey}`);
  headers.set('content-type', 'application/json');
  if (init.prefer) headers.set('prefer', init.prefer);
  return fetch(`${target.url}${path}`, { ...init, headers });
}

interface TableInfo {
  schema: string;
  name: string;
  pk: string[];
  owners: string[];
  /** Columns an insert may not name (generated, identity always). */
  generated: string[];
  /** Primary-key columns with a default (left out of an insert so it makes a new row). */
  defaulted: string[];
}

async function exposedTables(): Promise<TableInfo[]> {
  return sql<TableInfo>(
    `select n.nspname as schema, c.relname as name,
       coalesce((select array_agg(a.attname::text order by a.attnum) from pg_index i
                 join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                 where i.indrelid = c.oid and i.indisprimary), '{}') as pk,
       coalesce((select array_agg(distinct a.attname::text) from pg_constraint k
                 join pg_attribute a on a.attrelid = k.conrelid and a.attnum = any(k.conkey)
                 where k.conrelid = c.oid and k.contype = 'f'
                   and k.confrelid in ('auth.users'::regclass, 'public.users'::regclass)), '{}') as owners,
       coalesce((select array_agg(a.attname::text) from pg_attribute a where a.attrelid = c.oid and a.attnum > 0
                 and not a.attisdropped and (a.attgenerated <> '' or a.attidentity = 'a')), '{}') as generated,
       coalesce((select array_agg(a.attname::text) from pg_attribute a join pg_index i on i.indrelid = a.attrelid
                 and i.indisprimary and a.attnum = any(i.indkey) where a.attrelid = c.oid and a.atthasdef), '{}') as defaulted
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1) and c.relkind in ('r', 'p')
     order by 1, 2`,
    [EXPOSED_SCHEMAS],
  );
}

const eqFilter = (table: TableInfo, row: Record<string, unknown>) =>
  table.pk.map((column) => `${column}=eq.${encodeURIComponent(String(row[column]))}`).join('&');
const key = (table: TableInfo, row: Record<string, unknown>) => table.pk.map((column) => String(row[column])).join('|');

describe.skipIf(isHostedTarget)('row-level security, from the catalog', () => {
  it('every table of an exposed schema and of Storage has RLS; every view runs as its caller or is proven', async () => {
    const failures: string[] = [];
    const relations = await sql<{ name: string; kind: string; rls: boolean; options: string[] | null }>(
      `select format('%I.%I', n.nspname, c.relname) as name, c.relkind::text as kind, c.relrowsecurity as rls,
         c.reloptions as options
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where (n.nspname = any($1) or n.nspname = 'storage') and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
      [EXPOSED_SCHEMAS],
    );
    const definerViews: string[] = [];
    for (const relation of relations) {
      if ((relation.kind === 'r' || relation.kind === 'p') && !relation.rls) failures.push(`${relation.name}: RLS off`);
      if (relation.kind === 'm' || relation.kind === 'f') failures.push(`${relation.name}: cannot have RLS`);
      if (
        relation.kind === 'v' &&
        !(relation.options ?? []).some((option) => /^security_invoker=(true|on|1)$/.test(option))
      ) {
        definerViews.push(relation.name);
      }
    }
    // The one view that must run as its owner: public_profiles shows other users' public fields,
    // which RLS on users hides. Proven below, row by row; any other definer view is a failure.
    failures.push(
      ...definerViews
        .filter((name) => name !== 'public.public_profiles')
        .map((name) => `${name}: not security_invoker`),
    );
    failures.push(...(await provePublicProfiles()));
    recordTally({
      check: 'RLS coverage',
      counts: 'tables without RLS, views bypassing it',
      cases: relations.length,
      failures,
    });
    expect(failures).toEqual([]);
  });

  it('anonymous and another member read, change, delete and add none of anyone else’s rows', async () => {
    const tables = await exposedTables();
    expect(tables.length).toBeGreaterThan(10);
    const failures: string[] = [];
    let cases = 0;
    const ownerReads: string[] = [];
    for (const table of tables) {
      if (table.pk.length === 0) {
        failures.push(`${table.name}: no primary key to address rows by`);
        continue;
      }
      const path = `/rest/v1/${table.name}`;
      const all = await sql<{ row: Record<string, unknown> }>(
        `select to_jsonb(t) as row from ${table.schema}.${table.name} t`,
      );
      const ownedBy = (row: Record<string, unknown>, id: string) =>
        table.owners.some((column) => row[column] === id) || (table.name === 'users' && row.id === id);
      const select = `select=${table.pk.join(',')}&limit=100000`;

      // Reads: the member sees no row of others that anonymous cannot see.
      const visible = async (token: string | null) => {
        const response = await rest(`${path}?${select}`, token);
        if (!response.ok) return new Set<string>();
        return new Set(((await response.json()) as Record<string, unknown>[]).map((row) => key(table, row)));
      };
      const publicRows = await visible(null);
      const memberRows = await visible(member.token);
      cases += all.length;
      for (const { row } of all) {
        const id = key(table, row);
        if (memberRows.has(id) && !publicRows.has(id) && !ownedBy(row, member.id)) {
          failures.push(`read ${table.name} ${id} as another member`);
        }
      }
      // The owner column: a demo user reads their own rows (the matrix is not refusing everything).
      for (const [ownerId, token] of tokens) {
        const own = all.filter(({ row }) => ownedBy(row, ownerId) && !publicRows.has(key(table, row)));
        if (own.length > 0 && (await visible(token)).has(key(table, own[0]!.row))) ownerReads.push(table.name);
      }

      // Writes on rows the attacker does not own.
      const victims = all.filter(({ row }) => !ownedBy(row, member.id)).slice(0, ROWS_PER_TABLE);
      const before = await fingerprint(table);
      for (const [who, token] of [
        ['anonymous', null],
        ['another member', member.token],
      ] as const) {
        for (const { row } of victims) {
          const filter = eqFilter(table, row);
          const column = Object.keys(row).find((name) => !table.pk.includes(name) && !table.generated.includes(name));
          if (column) {
            cases++;
            const update = await rest(`${path}?${filter}`, token, {
              method: 'PATCH',
              prefer: 'return=representation',
              body: JSON.stringify({ [column]: row[column] }),
            });
            if (update.ok && ((await update.json()) as unknown[]).length > 0) {
              failures.push(`update ${table.name} ${key(table, row)} as ${who}`);
            }
          }
          cases++;
          const removal = await rest(`${path}?${filter}`, token, { method: 'DELETE', prefer: 'return=representation' });
          if (removal.ok && ((await removal.json()) as unknown[]).length > 0) {
            failures.push(`delete ${table.name} ${key(table, row)} as ${who}`);
          }
          // A copy of the victim's row, owners kept: an insert in someone else's name.
          cases++;
          const copy = Object.fromEntries(
            Object.entries(row).filter(([name]) => !table.generated.includes(name) && !table.defaulted.includes(name)),
          );
          const insert = await rest(path, token, {
            method: 'POST',
            prefer: 'return=minimal',
            body: JSON.stringify(copy),
          });
          if (insert.ok) failures.push(`insert into ${table.name} (copy of ${key(table, row)}) as ${who}`);
        }
      }
      if ((await fingerprint(table)) !== before) failures.push(`${table.name}: data changed by refused writes`);
    }
    recordTally({
      check: 'RLS matrix (Data API)',
      counts: 'cross-user reads, updates, deletes or inserts that went through',
      cases,
      failures,
    });
    expect(failures).toEqual([]);
    // Owners do read their own private rows (purchases, settings, subscriptions, …).
    expect(ownerReads.length).toBeGreaterThanOrEqual(4);
  }, 120_000);

  it('Storage: anonymous and another member read private objects, overwrite, move or delete nothing', async () => {
    const service = serviceClient(target);
    // A bucket without objects (the contract target writes no package files) gets one in the demo buyer's folder
    // (as a PNG where the bucket takes one: Storage checks an image's bytes against its type).
    const buckets = await sql<{ id: string; empty: boolean; type: string | null }>(
      `select b.id, case when 'image/png' = any (b.allowed_mime_types) then 'image/png' else b.allowed_mime_types[1] end as type,
         not exists (select 1 from storage.objects o where o.bucket_id = b.id) as empty
       from storage.buckets b order by b.id`,
    );
    expect(buckets.length).toBeGreaterThan(0);
    for (const bucket of buckets.filter((candidate) => candidate.empty)) {
      const upload = await service.storage
        .from(bucket.id)
        .upload(`${DEMO.buyer.id}/rls-matrix`, new Blob([PNG], { type: bucket.type ?? 'image/png' }), { upsert: true });
      expect(upload.error, bucket.id).toBeNull();
    }
    const objects = await sql<{ bucket_id: string; name: string; public: boolean }>(
      `select o.bucket_id, o.name, b.public from storage.objects o join storage.buckets b on b.id = o.bucket_id
       where (o.owner_id is null or o.owner_id <> $1)
       order by o.bucket_id, o.name`,
      [member.id],
    );
    const perBucket = new Map<string, typeof objects>();
    for (const object of objects) {
      const list = perBucket.get(object.bucket_id) ?? [];
      if (list.length < ROWS_PER_TABLE) perBucket.set(object.bucket_id, [...list, object]);
    }
    const storageFingerprint = async () =>
      (
        await sql<{ md5: string }>(
          `select md5(string_agg(t::text, '|' order by t::text)) as md5 from storage.objects t`,
        )
      )[0]!.md5;
    const before = await storageFingerprint();
    const failures: string[] = [];
    let cases = 0;
    for (const [who, token] of [
      ['anonymous', null],
      ['another member', member.token],
    ] as const) {
      for (const object of [...perBucket.values()].flat()) {
        const where = `${object.bucket_id}/${object.name}`;
        const attempts: Array<[string, Promise<Response>, (response: Response) => Promise<boolean>]> = [
          [
            'overwrite',
            storage(`/object/${where}`, token, {
              method: 'PUT',
              body: 'x',
              headers: { 'x-upsert': 'true', 'content-type': 'image/png' },
            }),
            async (r) => r.ok,
          ],
          [
            'add beside',
            storage(`/object/${object.bucket_id}/${object.name.split('/')[0]}/intruder.png`, token, {
              method: 'POST',
              body: 'x',
              headers: { 'content-type': 'image/png' },
            }),
            async (r) => r.ok,
          ],
          [
            'move',
            storage('/object/move', token, {
              method: 'POST',
              body: JSON.stringify({
                bucketId: object.bucket_id,
                sourceKey: object.name,
                destinationKey: `${member.id}/stolen.png`,
              }),
            }),
            async (r) => r.ok,
          ],
          [
            'delete',
            storage(`/object/${object.bucket_id}`, token, {
              method: 'DELETE',
              body: JSON.stringify({ prefixes: [object.name] }),
            }),
            async (r) => r.ok && ((await r.json()) as unknown[]).length > 0,
          ],
        ];
        if (!object.public) {
          attempts.push(
            ['read', storage(`/object/authenticated/${where}`, token), async (r) => r.ok],
            [
              'sign a URL',
              storage(`/object/sign/${where}`, token, { method: 'POST', body: JSON.stringify({ expiresIn: 60 }) }),
              async (r) => r.ok,
            ],
          );
        }
        for (const [action, response, accepted] of attempts) {
          cases++;
          if (await accepted(await response)) failures.push(`${action} ${where} as ${who}`);
        }
      }
    }
    if ((await storageFingerprint()) !== before) failures.push('storage.objects changed by refused requests');
    recordTally({
      check: 'RLS matrix (Storage)',
      counts: 'cross-user object reads or writes that went through',
      cases,
      failures,
    });
    expect(failures).toEqual([]);
    expect(perBucket.size).toBe(buckets.length);
  });
});

function storage(path: string, token: string | null, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('apikey', target.anonKey);
  headers.set('authorization', `Bearer ${token ?? target.anonKey}`);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return fetch(`${target.url}/storage/v1${path}`, { ...init, headers });
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function fingerprint(table: TableInfo): Promise<string> {
  const rows = await sql<{ md5: string }>(
    `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as md5 from ${table.schema}.${table.name} t`,
  );
  return rows[0]!.md5;
}

/**
 * public_profiles runs as its owner. Its rule, checked on every row for anonymous and another
 * member: the username (and the always-public columns) for everyone; the other fields only when
 * the profile is public (or `members` and the viewer signed in); email and phone only when the
 * user shows them. Some demo profiles are made private and members-only first.
 */
async function provePublicProfiles(): Promise<string[]> {
  await sql(`update public.user_settings set profile_visibility = 'private', show_email = false where user_id = $1`, [
    DEMO.buyer.id,
  ]);
  await sql(`update public.user_settings set profile_visibility = 'members', show_email = true where user_id = $1`, [
    DEMO.seller.id,
  ]);
  const ALWAYS = new Set([
    'id',
    'username',
    'user_type',
    'created_at',
    'is_online',
    'response_time_hours',
    'visibility',
    'visible',
  ]);
  const settings = new Map(
    (
      await sql<{ user_id: string; profile_visibility: string | null; show_email: boolean; show_phone: boolean }>(
        `select user_id, profile_visibility, show_email, show_phone from public.user_settings`,
      )
    ).map((row) => [row.user_id, row]),
  );
  const failures: string[] = [];
  for (const [who, token] of [
    ['anonymous', null],
    ['another member', member.token],
  ] as const) {
    const response = await rest('/rest/v1/public_profiles?select=*&limit=100000', token);
    const rows = (await response.json()) as Record<string, unknown>[];
    if (rows.length === 0) failures.push(`public_profiles: nothing read as ${who}`);
    for (const row of rows) {
      if (row.id === member.id) continue;
      const setting = settings.get(String(row.id));
      const visibility = setting?.profile_visibility ?? 'public';
      const visible = visibility === 'public' || (visibility === 'members' && token !== null);
      for (const [column, value] of Object.entries(row)) {
        if (ALWAYS.has(column) || value === null) continue;
        const allowed =
          visible &&
          (column === 'email'
            ? Boolean(setting?.show_email)
            : column === 'phone'
              ? Boolean(setting?.show_phone)
              : true);
        if (!allowed) failures.push(`public_profiles.${column} of ${String(row.username)} shown to ${who}`);
      }
    }
  }
  return failures;
}
