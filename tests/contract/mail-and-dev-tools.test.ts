/**
 * The outbox, email delivery and the redirect allow-list: in production (no development tools) nobody
 * reads the outbox without the service key, the recover → read code → verify takeover fails,
 * emails go out by SMTP (a tiny SMTP sink here) or to the server log, and redirects go only to
 * the configured URLs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadAuthConfig } from '../../packages/supabase-embedded/src/auth/config';
import { createEmbeddedBackend, readOutbox } from '@agentmarket/supabase-embedded';
import { authFetch, uniqueEmail } from '../support/auth-helpers';
import { anonClient, serviceClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';
import { startSmtpSink } from '../support/smtp-sink';

describe.skipIf(isHostedTarget)('production mode (development tools off)', () => {
  let target: ContractTarget;
  beforeAll(async () => {
    target = await startContractTarget({ auth: { emailMaxFrequency: 0 } });
  });
  afterAll(() => target?.close());

  it('has no outbox page, outbox.json, stand-in Google page or avatar: 404', async () => {
    for (const route of [
      '/_local/outbox.json?to=admin@demo.test',
      '/_local/outbox',
      '/_local/google',
      '/_local/google?state=x',
      '/_local/avatar?name=Ada',
    ]) {
      const response = await fetch(`${target.url}/auth/v1${route}`);
      expect(response.status, route).toBe(404);
      expect(await response.text(), route).not.toContain('admin@demo.test');
    }
    const posted = await fetch(`${target.url}/auth/v1/_local/google`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'state=x&intent=new&email=admin@demo.test',
    });
    expect(posted.status).toBe(404);
  });

  it('refuses the recover → read the code → verify takeover', async () => {
    const client = anonClient(target);
    expect((await client.auth.resetPasswordForEmail('admin@demo.test')).error).toBeNull();
    const outbox = await fetch(`${target.url}/auth/v1/_local/outbox.json?to=admin@demo.test`);
    expect(outbox.status).toBe(404);
    const body = await outbox.text();
    const code = /"otp":"(\d+)"/.exec(body)?.[1] ?? '000000';
    const { data, error } = await client.auth.verifyOtp({ email: 'admin@demo.test', token: code, type: 'recovery' });
    expect(data.session).toBeNull();
    expect(error?.status).toBe(403);
    // The code was sent; only the Auth service and its admins know it.
    expect((await readOutbox(target.backend!.db, { to: 'admin@demo.test', limit: 1 }))[0]?.type).toBe('recovery');
  });

  it('shows the outbox to the service role only', async () => {
    const signedIn = await anonClient(target).auth.signInWithPassword({
      email: 'buyer@demo.test',
      password: 'demo-password',
    });
    const userToken = signedIn.data.session?.access_token;
    for (const bearer of [undefined, target.anonKey, userToken]) {
      const response = await authFetch(target, '/admin/outbox', { bearer });
      expect(response.status).toBe(403);
    }
    const email = uniqueEmail('outbox');
    await serviceClient(target).auth.admin.createUser({ email, password: 'correct-horse', email_confirm: true });
    await anonClient(target).auth.resetPasswordForEmail(email);
    const response = await authFetch(target, '/admin/outbox', { bearer: target.serviceRoleKey });
    expect(response.status).toBe(200);
    const outbox = (await response.json()) as { delivery: string; dev_tools: boolean; emails: { to: string }[] };
    expect(outbox).toMatchObject({ delivery: 'log', dev_tools: false });
    expect(outbox.emails[0]?.to).toBe(email);
  });

  it('reports Google sign-in as off without a client, and refuses to start it', async () => {
    const settings = (await (await authFetch(target, '/settings')).json()) as { external: { google: boolean } };
    expect(settings.external.google).toBe(false);
    const authorize = await fetch(`${target.url}/auth/v1/authorize?provider=google`, { redirect: 'manual' });
    expect(authorize.status).toBe(400);
  });

  it('redirects only to the site URL, the app origin and the configured globs', async () => {
    const redirectOf = async (redirectTo: string) => {
      const email = uniqueEmail('redirect');
      await serviceClient(target).auth.admin.createUser({ email, password: 'correct-horse', email_confirm: true });
      expect((await anonClient(target).auth.resetPasswordForEmail(email, { redirectTo })).error).toBeNull();
      return (await readOutbox(target.backend!.db, { to: email, limit: 1 }))[0]!.redirectTo;
    };
    // Another port on localhost could be any local program waiting for the code.
    expect(await redirectOf('http://localhost:9999/')).toBe(target.url);
    expect(await redirectOf('http://127.0.0.1:9999/auth/callback')).toBe(target.url);
    expect(await redirectOf('http://localhost:3000/auth/callback')).toBe('http://localhost:3000/auth/callback');
    expect(await redirectOf('http://127.0.0.1:3000/a/b')).toBe('http://127.0.0.1:3000/a/b');
    expect(await redirectOf(`${target.url}/auth/callback?next=/x`)).toBe(`${target.url}/auth/callback?next=/x`);
    const authorize = await fetch(
      `${target.url}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent('http://localhost:9999/')}`,
    );
    expect(authorize.status).toBe(400); // and Google is off here anyway
  });
});

describe.skipIf(isHostedTarget)('email delivery', () => {
  it('sends through SMTP when configured, and keeps the email in the admin outbox', async () => {
    const sink = await startSmtpSink();
    const target = await startContractTarget({
      auth: { smtp: { url: `smtp://127.0.0.1:${sink.port}`, from: 'AgentMarket <no-reply@market.test>' } },
    });
    try {
      const email = uniqueEmail('smtp');
      await serviceClient(target).auth.admin.createUser({ email, password: 'correct-horse', email_confirm: true });
      expect((await anonClient(target).auth.resetPasswordForEmail(email)).error).toBeNull();
      const [stored] = await readOutbox(target.backend!.db, { to: email, limit: 1 });
      await vi.waitFor(() => expect(sink.messages).toHaveLength(1));
      const message = sink.messages[0]!;
      expect(message).toMatch(new RegExp(`^To: ${email.replace(/[.]/g, '\\.')}$`, 'm'));
      expect(message).toMatch(/^From: AgentMarket <no-reply@market\.test>$/m);
      expect(message).toMatch(/^Subject: Reset Your Password$/m);
      expect(message.replace(/=\r?\n/g, '')).toContain(stored!.otp);
      const outbox = (await (await authFetch(target, '/admin/outbox', { bearer: target.serviceRoleKey })).json()) as {
        delivery: string;
      };
      expect(outbox.delivery).toBe('smtp');
    } finally {
      await target.close();
      await sink.close();
    }
  });

  it('answers /recover without waiting for the mail server, so its time does not tell who has an account', async () => {
    const sink = await startSmtpSink({ held: true });
    const target = await startContractTarget({
      auth: { smtp: { url: `smtp://127.0.0.1:${sink.port}`, from: 'AgentMarket <no-reply@market.test>' } },
    });
    try {
      const email = uniqueEmail('slow-smtp');
      await serviceClient(target).auth.admin.createUser({ email, password: 'correct-horse', email_confirm: true });
      // The mail server has not even greeted yet: the answer came without waiting for it.
      expect((await anonClient(target).auth.resetPasswordForEmail(email)).error).toBeNull();
      expect(sink.messages).toHaveLength(0);
      sink.release();
      await vi.waitFor(() => expect(sink.messages).toHaveLength(1));
      expect(sink.messages[0]).toMatch(/^Subject: Reset Your Password$/m);
    } finally {
      await target.close();
      await sink.close();
    }
  });

  it('without SMTP writes recipient, subject and link to the server log', async () => {
    const lines: string[] = [];
    const backend = await createEmbeddedBackend({ dataDir: null, log: (line) => lines.push(line) });
    try {
      const response = await backend.fetch(`${backend.siteUrl()}/auth/v1/recover`, {
        method: 'POST',
        headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'seller@demo.test' }),
      });
      expect(response.status).toBe(200);
      const [stored] = await readOutbox(backend.db, { to: 'seller@demo.test', limit: 1 });
      // The same log also reports the steps of the first start; the email is one line of its own.
      expect(lines.filter((line) => line.startsWith('[auth]'))).toEqual([
        `[auth] email not sent (no SMTP configured): to=seller@demo.test subject="Reset Your Password" link=${stored!.link}`,
      ]);
    } finally {
      await backend.close();
    }
  });

  it('reads [auth.email.smtp] and [auth.external.google] of config.toml, resolving env()', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'auth-config-'));
    writeFileSync(
      path.join(dir, 'config.toml'),
      `[auth.email.smtp]
enabled = true
host = "smtp.example.com"
port = 465
user = "apikey"
pass = "env(TEST_SMTP_PASS)"
admin_email = "no-reply@example.com"
sender_name = "AgentMarket"

[auth.external.google]
enabled = true
client_id = "env(TEST_GOOGLE_ID)"
secret = "env(TEST_GOOGLE_SECRET)"
`,
    );
    process.env.TEST_SMTP_PASS = 'p@ss word';
    process.env.TEST_GOOGLE_ID = 'id-123';
    delete process.env.TEST_GOOGLE_SECRET;
    const config = loadAuthConfig(dir);
    expect(config.smtp).toEqual({
      url: 'smtps://apikey:p%40ss%20word@smtp.example.com:465',
      from: '"AgentMarket" <no-reply@example.com>',
    });
    expect(config.googleClient).toBeNull(); // the secret's env() is unset: not configured
    process.env.TEST_GOOGLE_SECRET = 'shh';
    expect(loadAuthConfig(dir).googleClient).toEqual({
      clientId: 'id-123',
      clientSecret: 'shh',
      issuer: 'https://accounts.google.com',
    });
    delete process.env.TEST_SMTP_PASS;
    delete process.env.TEST_GOOGLE_ID;
    delete process.env.TEST_GOOGLE_SECRET;
  });
});
