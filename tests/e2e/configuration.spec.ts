/**
 * Configuration at start-up, on the real production server: a set-but-empty variable counts as
 * unset (checked on `npm start` in first-hour.spec.ts, which starts one server for several
 * checks), and an invalid one stops start-up with a message naming it (exit code 1, no stack
 * trace). Runs its own servers (not the shared webServer), in the `js` project only.
 */
import { expect, test } from '@playwright/test';
import { killServers, spawnServer } from './support/server-process';

test.afterAll(killServers);

test.beforeEach(() => {
  test.skip(test.info().project.name !== 'js', 'runs its own servers once, in the js project');
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
