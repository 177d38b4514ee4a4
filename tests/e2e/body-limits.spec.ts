/**
 * Request bodies over the limit, of unknown length, or too slow, on every route family (an app
 * action, /rest/v1, /auth/v1, /storage/v1), against a real `node server.js` on the production
 * build: each gets its 413 / 408 and the process keeps answering. Before the fix, an 11 MB
 * chunked POST to /rest/v1 got its 413 and then killed the process with
 * `ERR_INVALID_STATE: Controller is already closed`. Also: the process-level guard logs an
 * error that escapes every handler and keeps serving. Runs its own server, in the `js` project only.
 */
import http from 'node:http';
import { expect, test } from '@playwright/test';
import { killServers, startServer, type ServerProcess } from './support/server-process';

const MB = 1024 * 1024;
const BODY_TIMEOUT_MS = 1500;

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * A POST over a fresh connection. `size` bytes are written in 64 KiB chunks, stopping as soon as
 * the server answered; `declare` sends Content-Length (else the body is chunked); `stall` writes
 * only the first chunk and then waits without ending the body.
 */
function rawPost(
  origin: string,
  path: string,
  options: { size: number; declare?: boolean; stall?: boolean; headers?: Record<string, string> },
): Promise<RawResponse> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(url, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        ...(options.declare ? { 'content-length': String(options.size) } : {}),
        ...options.headers,
      },
    });
    request.on('response', (response) => {
      answered = true;
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      const done = () => {
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text });
        request.destroy(); // stop sending the rest
      };
      response.on('end', done);
      response.on('error', done);
    });
    // Once the server has answered and closed, writes still in flight may fail: that is expected.
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    void (async () => {
      let written = 0;
      while (written < options.size && !answered && !request.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, options.size - written));
        written += piece.length;
        if (!request.write(piece)) {
          await new Promise<void>((done) => {
            const settle = () => {
              request.off('drain', settle);
              request.off('close', settle);
              done();
            };
            request.on('drain', settle);
            request.on('close', settle);
          });
        }
        if (options.stall) return; // never ends the body
      }
      if (!answered && !request.destroyed) request.end();
    })();
  });
}

let server: ServerProcess;

test.describe('request bodies', () => {
  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async () => {
    test.skip(test.info().project.name !== 'js', 'runs its own server once, in the js project');
    test.setTimeout(180_000);
    server = await startServer('memory', { REQUEST_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) });
  });
  test.afterAll(() => killServers());

  const stillServing = async () => {
    const health = await fetch(`${server.origin}/healthz`);
    expect(health.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).not.toContain('ERR_INVALID_STATE');
    expect(server.output()).not.toContain('Unexpected error');
  };
  const apiKey = () => ({ apikey: server.anonKey, authorization: `Bearer ${server.anonKey}` });

  const targets = [
    { name: 'an app action', path: '/auth/sign-in', limit: 1 * MB, api: false },
    { name: '/rest/v1', path: '/rest/v1/newsletter_subscribers', limit: 10 * MB, api: true },
    { name: '/auth/v1', path: '/auth/v1/signup', limit: 10 * MB, api: true },
    { name: '/storage/v1', path: '/storage/v1/object/avatars/limit-test.png', limit: 10 * MB, api: true },
  ];

  for (const target of targets) {
    test(`${target.name}: a chunked body over the limit is a 413 and the server lives on`, async () => {
      const response = await rawPost(server.origin, target.path, {
        size: target.limit + MB,
        headers: target.api ? apiKey() : {},
      });
      expect(response.status).toBe(413);
      expect(response.text).toContain('Request body too large');
      await stillServing();
    });

    test(`${target.name}: a declared length over the limit is a 413`, async () => {
      const response = await rawPost(server.origin, target.path, {
        size: target.limit + MB,
        declare: true,
        headers: target.api ? apiKey() : {},
      });
      expect(response.status).toBe(413);
      await stillServing();
    });

    test(`${target.name}: a body that never finishes is a 408 and blocks no one`, async () => {
      for (const declare of [true, false]) {
        const pending = rawPost(server.origin, target.path, {
          size: 100_000,
          declare,
          stall: true,
          headers: target.api ? apiKey() : {},
        });
        // While that body hangs, other requests are served.
        await stillServing();
        const response = await pending;
        expect(response.status).toBe(408);
        expect(response.text).toContain('Request body not received in time');
      }
      await stillServing();
    });
  }

  test('an 11 MB chunked newsletter POST with the anon key: 413, then the server still answers', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await rawPost(server.origin, '/rest/v1/newsletter_subscribers', {
        size: 11 * MB,
        headers: apiKey(),
      });
      expect(response.status).toBe(413);
      expect(JSON.parse(response.text)).toMatchObject({ statusCode: '413', error: 'Payload too large' });
    }
    // Give chunks still in flight the time to arrive: the process must survive them.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await stillServing();
  });

  test('bodies within the limit are accepted, chunked or not', async () => {
    // An RPC that needs the whole JSON body: a truncated one would be a 400, not an answer.
    for (const [declare, name, available] of [
      [false, 'demo_seller', false],
      [true, `free_${Date.now().toString(36)}`, true],
    ] as const) {
      const body = JSON.stringify({ name });
      const answer = await new Promise<RawResponse>((resolve, reject) => {
        const request = http.request(`${server.origin}/rest/v1/rpc/is_username_available`, {
          method: 'POST',
          agent: false,
          headers: {
            ...apiKey(),
            'content-type': 'application/json',
            ...(declare ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
          },
        });
        request.on('response', (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
        });
        request.on('error', reject);
        if (!declare) request.write(body.slice(0, 5)); // a second chunk follows
        request.end(declare ? body : body.slice(5));
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toBe(available);
    }

    // A chunked form post to an app action is read (it used to be refused with 411): a sign-in
    // with a wrong password answers the form's own error, not a body-size refusal.
    const signIn = await fetch(`${server.origin}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new Blob(['email=nobody%40demo.test&password=wrong-password-1']).stream(),
      duplex: 'half',
      redirect: 'manual',
    } as RequestInit);
    expect([200, 400, 303, 302]).toContain(signIn.status);
    expect(signIn.status).not.toBe(411);
    await stillServing();
  });
});

test('the process guard logs an error that escapes every handler and keeps serving', async () => {
  test.skip(test.info().project.name !== 'js', 'runs its own server once, in the js project');
  test.setTimeout(180_000);
  // A preloaded module that throws outside any request handler on SIGUSR2: the kind of error
  // (a stream callback, a forgotten promise) the guard exists for.
  const preload = `process.on('SIGUSR2', () => { Promise.reject(new Error('guard-test rejection')); setImmediate(() => { throw new Error('guard-test exception'); }); });`;
  // A deployment's start (no demo data to load): the guard is the same either way.
  const guarded = await startServer('memory', {
    DEMO_MODE: 'false',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=data:text/javascript,${encodeURIComponent(preload)}`,
  });
  guarded.child.kill('SIGUSR2');
  await expect.poll(() => guarded.output()).toContain('guard-test exception');
  await expect.poll(() => guarded.output()).toContain('guard-test rejection');
  expect(guarded.output()).toMatch(/Unexpected error \(uncaughtException\); still serving:[\s\S]*at Immediate/);
  expect((await fetch(`${guarded.origin}/healthz`)).status).toBe(200);
  expect(guarded.child.exitCode).toBeNull();
  killServers();
});
