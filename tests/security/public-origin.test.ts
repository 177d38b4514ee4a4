/**
 * Links and origins. The public origin never follows a request header. With no APP_URL (the demo, this test's app),
 * a password reset requested with `Host: evil.example` (or `X-Forwarded-Host`), through the app's
 * form and through `/auth/v1/recover`, mails a link on the server's own origin, and a page's own
 * links (the canonical URL) stay there too. A production start without APP_URL refuses to run,
 * with a line that names it. The first administrator's `/setup?token=…` page is never cached
 * nor sent as a Referer, and its token appears in no other form or link of the page.
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../packages/supabase-embedded/src/auth/outbox';
import { startAppInProcess, type AppInProcess } from '../support/app-in-process';
import { recordTally } from '../support/security-tally';

let app: AppInProcess;

beforeAll(async () => {
  app = await startAppInProcess();
}, 120_000);
afterAll(() => app?.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to the app with headers fetch() would not send as given (`Host`). */
function rawRequest(method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(app.origin);
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ hostname, port, method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The spoofed hosts: the Host header (on another port and on this one), and a proxy's header. */
const spoofs = (): Array<[string, Record<string, string>]> => [
  ['Host', { host: 'evil.example' }],
  ['Host on this port', { host: `evil.example:${new URL(app.origin).port}` }],
  ['X-Forwarded-Host', { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }],
];

/** A new confirmed account (a reset is mailed at most once a minute per account). */
async function newAccount(label: string): Promise<string> {
  const email = `origin-${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const response = await app.backend.fetch(`${app.origin}/auth/v1/admin/users`, {
    method: 'POST',
    headers: {
      apikey: app.backend.serviceRoleKey,
      authorization: `Bearer ${app.backend.serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ email, password: 'correct-horse-battery', email_confirm: true }),
  });
  expect(response.status).toBe(200);
  return email;
}

async function newestRecoveryLink(email: string): Promise<string> {
  const [stored] = await readOutbox(app.backend.db, { to: email, limit: 1 });
  expect(stored?.type).toBe('recovery');
  return stored!.link!;
}

/** What of a mailed link is not on the app's own origin: the link, and where it leads after. */
function offOrigin(link: string): string[] {
  const url = new URL(link);
  const problems: string[] = [];
  if (url.origin !== app.origin) problems.push(`link on ${url.origin}`);
  const next = url.searchParams.get('redirect_to');
  if (next && new URL(next).origin !== app.origin) problems.push(`redirect_to on ${new URL(next).origin}`);
  return problems;
}

describe('the public origin', () => {
  it('a password reset asked with a spoofed host mails a link on the server’s own origin', async () => {
    const failures: string[] = [];
    let cases = 0;
    for (const [name, spoofed] of spoofs()) {
      // The app's form, as an anonymous visitor without an Origin header (curl).
      cases++;
      const formVictim = await newAccount('form');
      const form = await rawRequest(
        'POST',
        '/auth/forgot-password',
        { ...spoofed, 'content-type': 'application/x-www-form-urlencoded' },
        new URLSearchParams({ email: formVictim }).toString(),
      );
      expect(form.status).toBeLessThan(500);
      failures.push(...offOrigin(await newestRecoveryLink(formVictim)).map((what) => `form, ${name}: ${what}`));
      // The Auth API directly, asking for the attacker's page as well.
      cases++;
      const apiVictim = await newAccount('api');
      const api = await rawRequest(
        'POST',
        '/auth/v1/recover',
        { ...spoofed, apikey: app.backend.anonKey, 'content-type': 'application/json' },
        JSON.stringify({ email: apiVictim, redirect_to: 'http://evil.example/callback' }),
      );
      expect(api.status).toBe(200);
      failures.push(...offOrigin(await newestRecoveryLink(apiVictim)).map((what) => `API, ${name}: ${what}`));
    }
    recordTally({
      check: 'Public origin',
      counts: 'emailed links on a host a request named (Host, X-Forwarded-Host)',
      cases,
      failures,
    });
    expect(failures).toEqual([]);
  }, 60_000);

  it('a page opened with a spoofed Host names no other host in its links', async () => {
    const { rows } = await app.backend.db.query<{ id: string }>(
      `select id from public.agents where status = 'published' order by created_at limit 1`,
    );
    const page = await rawRequest('GET', `/agent/${rows[0]!.id}`, { host: 'evil.example' });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('evil.example');
  });

  it('a production start without APP_URL exits with a line naming it', async () => {
    // The server as `npm run serve` starts it, loading the app through Vite (no build needed).
    const env: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: 'production',
      DEMO_MODE: 'false',
      EMBEDDED_DATA_DIR: 'memory',
      PORT: '0',
      HOST: '127.0.0.1',
    };
    delete env.APP_URL;
    const child = spawn(process.execPath, ['server.js', '--dev'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(code).toBe(1);
    expect(output).toContain('APP_URL: required in production');
    expect(output).not.toContain('listening on');
  }, 90_000);
});

describe('the setup page', () => {
  /** The demo administrator's account type (triggers off: the last administrator is never demoted otherwise). */
  async function setAdmins(type: 'admin' | 'buyer') {
    await app.backend.db.query(`set session_replication_role = replica`);
    try {
      await app.backend.db.query(`update public.users set user_type = $1 where email = 'admin@demo.test'`, [type]);
    } finally {
      await app.backend.db.query(`reset session_replication_role`);
    }
  }

  /** Makes the deployment one without an administrator, and returns the fresh one-time token. */
  async function setupToken(): Promise<string> {
    await setAdmins('buyer');
    const link = (await app.startupNotices()).join('\n');
    const token = /\/setup\?token=([\w-]+)/.exec(link)?.[1];
    expect(token, link).toBeTruthy();
    return token!;
  }
  afterAll(async () => {
    await setAdmins('admin');
  });

  /**
   * What carries `secret` in a page but the setup form itself (its own address and hidden
   * field): other forms' fields and targets, and links.
   */
  function leaks(html: string, secret: string): string[] {
    const found: string[] = [];
    for (const [form] of html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/g)) {
      const openingTag = form.slice(0, form.indexOf('>') + 1);
      if (/\saction="\/setup[?"]/.test(openingTag)) continue;
      if (form.includes(secret)) found.push(form.slice(0, 200));
    }
    const outsideSetupForm = html.replace(/<form\b[^>]*action="\/setup[?"][\s\S]*?<\/form>/g, '');
    for (const [, target] of outsideSetupForm.matchAll(/\shref="([^"]*)"/g))
      if (target!.includes(secret)) found.push(`link ${target}`);
    return found;
  }

  it('answers no-store and a same-origin referrer policy, and no other form or link carries its token', async () => {
    const token = await setupToken();
    const failures: string[] = [];
    for (const query of [`?token=${token}`, `?token=${token}&auth=sign-in`]) {
      const page = await fetch(`${app.origin}/setup${query.replace(token, encodeURIComponent(token))}`);
      const label = query.replace(token, '<token>');
      expect(page.status, label).toBe(200);
      if (!(page.headers.get('cache-control') ?? '').includes('no-store')) failures.push(`${label}: not no-store`);
      if (page.headers.get('referrer-policy') !== 'same-origin') failures.push(`${label}: not same-origin`);
      const html = await page.text();
      expect(html).toContain('name="token"');
      failures.push(...leaks(html, token).map((leak) => `${label}: ${leak.replace(token, '<token>')}`));
    }
    expect(failures).toEqual([]);
  });
});
