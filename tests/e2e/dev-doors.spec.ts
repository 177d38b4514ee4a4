/**
 * Every development convenience is closed unless its switch opens it: on a production server
 * started with none of them (as `npm start` and `npm run serve` do), the outbox, the stand-in
 * Google page, the benchmark's fixture page, the renewal job's clock and fault injection do not exist.
 * In the JavaScript project only.
 */
import { expect, isJavaScriptProject, test } from './fixtures';
import { killServers, startServer, type ServerProcess } from './support/server-process';

let server: ServerProcess;

test.beforeAll(async () => {
  // Skipped here, before its server starts (a skip in a test would start it for nothing).
  test.skip(!isJavaScriptProject(), 'the doors are the server’s: one run is enough');
  test.setTimeout(180_000); // starting its own production server(s) is slow on a busy machine
  server = await startServer('memory', {
    ENABLE_DEV_TOOLS: '',
    ENABLE_PERF_FIXTURE: '',
    ENABLE_FAULT_INJECTION: '',
  });
});

test.afterAll(() => killServers());

test('the development doors are closed in production', async ({ request, browser }) => {
  for (const path of [
    '/auth/v1/_local/outbox',
    '/auth/v1/_local/outbox.json?to=admin@demo.test',
    '/auth/v1/_local/google',
    '/auth/v1/_local/avatar?name=x',
    '/__perf/fixture',
  ]) {
    const response = await request.get(`${server.origin}${path}`);
    expect(response.status(), path).toBe(404);
  }
  // The renewal job's clock (tests/e2e/commerce/renewals.spec.ts) does not exist either.
  const clock = await request.post(`${server.origin}/__dev/renewals`, { form: { at: new Date().toISOString() } });
  expect(clock.status()).toBe(404);

  // The fault-injection cookie is ignored: the marketplace answers normally.
  const context = await browser.newContext();
  await context.addCookies([{ name: 'am_fault', value: 'catalogue', url: server.origin }]);
  const page = await context.newPage();
  const response = await page.goto(`${server.origin}/marketplace`);
  expect(response?.status()).toBe(200);
  await expect(page.getByText('Injected fault')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await context.close();
});
