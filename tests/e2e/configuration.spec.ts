/**
 * Configuration at start-up, on the real production server: a set-but-empty variable counts as
 * unset, and an invalid one stops start-up with a message naming it (exit code 1, no stack
 * trace). Runs its own servers (not the shared webServer), in the `js` project only.
 */
import { expect, test } from '@playwright/test';
import { killServers, spawnServer, startServer } from './support/server-process';

test.afterAll(killServers);

test.beforeEach(() => {
  test.skip(test.info().project.name !== 'js', 'runs its own servers once, in the js project');
});

test('SUPABASE_URL= (set but empty) starts on the embedded backend', async () => {
  // A whole start on a new database (schema and demo data): over 45 s on a busy two-core machine.
  test.setTimeout(180_000);
  const server = await startServer('memory', { SUPABASE_URL: '', SUPABASE_ANON_KEY: '', APP_URL: '' });
  expect(server.output()).toContain('Backend: embedded Supabase stand-in');
  const health = await fetch(`${server.origin}/healthz`);
  expect(await health.json()).toEqual({ status: 'ok', database: 'up' });
  const home = await fetch(`${server.origin}/`);
  expect(home.status).toBe(200);
});

test('an invalid variable stops start-up with one line per problem naming it, and no stack trace', async () => {
  const server = await spawnServer('memory', {
    SUPABASE_URL: 'not-a-url',
    SUPABASE_ANON_KEY: 'anon',
    TRUST_PROXY: 'yes',
  });
  expect(await server.exited).toBe(1);
  const output = server.output();
  expect(output).toContain('Invalid configuration (environment variables):');
  expect(output).toContain('SUPABASE_URL: expected an absolute URL, e.g. https://example.com');
  expect(output).toContain('TRUST_PROXY: Invalid option: expected one of "true"|"false"');
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toContain('ZodError');
  expect(output).not.toContain('listening on');
});

test('a deployment without APP_URL stops start-up with a line naming it', async () => {
  const server = await spawnServer('memory', { DEMO_MODE: 'false', APP_URL: '' });
  expect(await server.exited).toBe(1);
  const output = server.output();
  expect(output).toContain('APP_URL: required in production');
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toContain('listening on');
});
