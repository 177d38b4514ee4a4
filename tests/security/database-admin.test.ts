/**
 * The Database page on the whole app (real request handler, the embedded backend in memory with
 * the demo data; ADR 067): only an admin reads it, through the page and through /rest/v1; it shows
 * the health, the migrations and the tables as the database holds them; a backup downloads as one
 * file, is audited, and is restored by `npm run db:restore` into a new data directory on which
 * the app starts, the demo accounts sign in, a purchase goes through and a package downloads.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, signInThroughApp, startAppInProcess, type AppInProcess } from '../support/app-in-process';
import { anonClient } from '../support/clients';
import type { ContractTarget } from '../support/contract-target';

let app: AppInProcess;
let adminCookie: string;
let buyerCookie: string;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'database-admin-'));

beforeAll(async () => {
  app = await startAppInProcess();
  adminCookie = await signInThroughApp(app.origin, 'admin@demo.test');
  buyerCookie = await signInThroughApp(app.origin, 'buyer@demo.test');
}, 120_000);
afterAll(async () => {
  await app?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const post = postForm;

const page = (cookie: string | null) =>
  fetch(`${app.origin}/dashboard/database`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

const MIGRATION_FILES = readdirSync('supabase/migrations').filter((file) => file.endsWith('.sql'));

describe('who reads it', () => {
  it('a buyer and a seller are refused, a visitor is sent to sign in, through the page and the Data API', async () => {
    const sellerCookie = await signInThroughApp(app.origin, 'seller@demo.test');
    for (const cookie of [buyerCookie, sellerCookie]) {
      expect((await page(cookie)).status).toBe(403);
      expect((await post(app.origin, '/dashboard/database/backup', cookie, {})).status).toBe(403);
    }
    const visitor = await page(null);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('location')).toContain('auth=sign-in');

    const api = anonClient({ url: app.origin, anonKey: app.backend.anonKey } as ContractTarget);
    expect((await api.rpc('admin_database_overview')).error?.code).toBe('42501');
    await api.auth.signInWithPassword({ email: 'buyer@demo.test', password: 'demo-password' });
    expect((await api.rpc('admin_database_overview')).error?.code).toBe('42501');
  });

  it('the backup is no path of the site, and the in-process API asks for the service role key', async () => {
    for (const method of ['GET', 'HEAD']) {
      const outside = await fetch(`${app.origin}/embedded/v1/backup`, { method, headers: { cookie: adminCookie } });
      expect(outside.status).toBe(404);
      expect(outside.headers.get('content-type') ?? '').not.toContain('gzip');
    }
    const anonKey = app.backend.anonKey;
    const asAnon = await app.backend.fetch(`${app.origin}/embedded/v1/backup`, {
      headers: { apikey: anonKey, authorization: `Bearer ${anonKey}` },
    });
    expect(asAnon.status).toBe(401);
  });
});

describe('what it shows an admin', () => {
  it('the health check, every migration applied and none pending, and each table with its rows', async () => {
    const answer = await page(adminCookie);
    expect(answer.status).toBe(200);
    // React separates the parts of a text with comments.
    const html = (await answer.text()).replaceAll('<!-- -->', '');
    expect(html).toContain('<h1 class="text-3xl font-bold">Database</h1>');
    expect(html.match(/Reachable, answered in [\d.]+ ms/g)).toHaveLength(2);
    expect(html).toContain(`${MIGRATION_FILES.length} applied, 0 pending`);
    expect(html).toContain('20261214000100 database_overview');
    const agents = (await app.backend.db.query<{ n: number }>('select count(*)::int as n from public.agents')).rows[0]!
      .n;
    expect(html).toMatch(new RegExp(`public\\.agents</th>[\\s\\S]*?${agents.toLocaleString('en-US')}<`));
    expect(html).toContain('Download a backup');
    expect(html).not.toContain('Coming Soon');
  });

  it('has no other action: a POST to the page, or a GET of the backup, changes and answers nothing', async () => {
    const before = (await app.backend.db.query('select count(*)::int as n from public.audit_log')).rows;
    const toPage = await post(app.origin, '/dashboard/database', adminCookie, { intent: 'drop' });
    expect(toPage.status).toBe(405);
    const read = await fetch(`${app.origin}/dashboard/database/backup`, { headers: { cookie: adminCookie } });
    expect(read.status).toBeGreaterThanOrEqual(400);
    expect(read.status).toBeLessThan(500);
    expect(read.headers.get('content-type') ?? '').not.toContain('gzip');
    expect((await app.backend.db.query('select count(*)::int as n from public.audit_log')).rows).toEqual(before);
  });
});

describe('a backup and its restore', () => {
  let backupFile: string;

  it('downloads as one .tar.gz file holding the database and the Storage files, and is audited', async () => {
    const answer = await post(app.origin, '/dashboard/database/backup', adminCookie, {});
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/gzip');
    expect(answer.headers.get('content-disposition')).toMatch(
      /^attachment; filename="agentmarket-backup-.+\.tar\.gz"$/,
    );
    const bytes = new Uint8Array(await answer.arrayBuffer());
    const tar = gunzipSync(bytes).toString('latin1');
    for (const name of ['backup.json', 'pgdata.tar', 'storage/agent-packages/']) expect(tar).toContain(name);
    backupFile = path.join(scratch, 'backup.tar.gz');
    writeFileSync(backupFile, bytes);

    const audit = await app.backend.db.query<{ actor: string; bytes: number }>(
      `select u.email as actor, (a.details ->> 'bytes')::int as bytes
         from public.audit_log a join public.users u on u.id = a.actor_id
        where a.action = 'database.backed_up'`,
    );
    expect(audit.rows).toEqual([{ actor: 'admin@demo.test', bytes: bytes.byteLength }]);
  }, 60_000);

  const restore = (...args: string[]) =>
    spawnSync(process.execPath, ['scripts/db-restore.js', ...args], { encoding: 'utf8', timeout: 120_000 });

  it('npm run db:restore refuses a directory in use and a file that is not a backup, with a message', () => {
    writeFileSync(path.join(scratch, 'not-a-backup.tar.gz'), 'hello');
    const notBackup = restore(path.join(scratch, 'not-a-backup.tar.gz'), path.join(scratch, 'never'));
    expect(notBackup.status).toBe(1);
    expect(notBackup.stderr).toContain('is not a backup of this app');
    expect(existsSync(path.join(scratch, 'never'))).toBe(false);
    const usedDir = path.join(scratch, 'in-use');
    mkdirSync(usedDir);
    writeFileSync(path.join(usedDir, 'initialised'), '{}');
    const inUse = restore(backupFile, usedDir);
    expect(inUse.status).toBe(1);
    expect(inUse.stderr).toContain('is not empty. Restore into a new data directory');
    expect(readdirSync(usedDir)).toEqual(['initialised']);
    expect(restore().status).toBe(2);
  }, 60_000);

  it('restores into a new data directory where the app starts, the demo signs in, buys and downloads', async () => {
    const dataDir = path.join(scratch, 'restored');
    const restored = restore(backupFile, dataDir);
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);
    expect(restored.stdout).toContain(`Start the app on it: EMBEDDED_DATA_DIR=${dataDir} npm start`);

    const before = await app.backend.db.query<{ n: number }>('select count(*)::int as n from public.purchases');
    await app.close();
    const second = await startAppInProcess({ EMBEDDED_DATA_DIR: dataDir });
    app = second;
    const after = await second.backend.db.query<{ n: number }>('select count(*)::int as n from public.purchases');
    expect(after.rows).toEqual(before.rows);

    const buyer = await signInThroughApp(second.origin, 'buyer@demo.test');
    const { rows } = await second.backend.db.query<{ id: string; owned: string | null }>(
      `select a.id,
              (select p.agent_id::text from public.purchases p join public.users u on u.id = p.buyer_id
                where u.email = 'buyer@demo.test' and p.status = 'completed' limit 1) as owned
         from public.agents a
        where a.status = 'published' and a.seller_id <> (select id from public.users where email = 'buyer@demo.test')
          and not exists (select 1 from public.purchases p join public.users u on u.id = p.buyer_id
                           where p.agent_id = a.id and u.email = 'buyer@demo.test')
        order by a.created_at limit 1`,
    );
    const { id: agentId, owned } = rows[0]!;
    const summary = await (
      await fetch(`${second.origin}/agent/${agentId}/checkout`, { headers: { cookie: buyer } })
    ).text();
    const field = (name: string) => summary.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? '';
    const bought = await post(second.origin, `/agent/${agentId}/checkout`, buyer, {
      intent: 'buy',
      idempotencyKey: field('idempotencyKey'),
      price: field('price'),
    });
    expect(bought.status).toBe(303);
    const purchase = await second.backend.db.query(
      `select p.status from public.purchases p join public.users u on u.id = p.buyer_id
        where p.agent_id = $1 and u.email = 'buyer@demo.test'`,
      [agentId],
    );
    expect(purchase.rows).toEqual([{ status: 'completed' }]);

    // A package the backup carried (Storage restored beside the database).
    const download = await fetch(`${second.origin}/agent/${owned}/download`, { headers: { cookie: buyer } });
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(0);
  }, 180_000);
});
