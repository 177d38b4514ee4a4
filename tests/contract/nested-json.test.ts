/**
 * JSON bodies nested 100,000 deep (`[[[[…]]]]`), sent anonymously to the Data API, Auth and
 * Storage: each is a 400 that says the body is nested too deep, never a 500 from a stack
 * overflow. A body at the limit (packages/supabase-embedded/src/json-body.ts) is still taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../packages/supabase-embedded/src/json-body';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';

const LEVELS = 100_000;
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const TOO_DEEP = /nested deeper than \d+ levels/;

describe.skipIf(isHostedTarget)('deeply nested JSON bodies', () => {
  let target: ContractTarget;
  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
  });
  afterAll(() => target?.close());

  const post = (path: string, body: string, key = target.anonKey) =>
    fetch(`${target.url}${path}`, {
      method: 'POST',
      headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });

  it('Data API: a body nested 100,000 deep is a 400 PGRST102, at the top or inside an object', async () => {
    for (const body of [deep(LEVELS), `{"email":${deep(LEVELS)}}`]) {
      const response = await post('/rest/v1/newsletter_subscribers', body);
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { code: string; message: string; details: string };
      expect(answer).toMatchObject({ code: 'PGRST102', message: 'Empty or invalid json' });
      expect(answer.details).toMatch(TOO_DEEP);
    }
  });

  it('Auth: sign-up and password sign-in with a field nested 100,000 deep are a 400 bad_json', async () => {
    const fields = `"email":"deep-json@example.com","password":"correct-horse-battery"`;
    for (const path of ['/auth/v1/signup', '/auth/v1/token?grant_type=password', '/auth/v1/otp']) {
      const response = await post(path, `{${fields},"data":${deep(LEVELS)}}`);
      expect(response.status, path).toBe(400);
      const answer = (await response.json()) as { error_code: string; msg: string };
      expect(answer.error_code).toBe('bad_json');
      expect(answer.msg).toMatch(TOO_DEEP);
    }
  });

  it('Storage: a JSON body nested 100,000 deep is a 400', async () => {
    const response = await post('/storage/v1/object/list/agent-packages', `{"prefix":${deep(LEVELS)}}`);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toMatch(TOO_DEEP);
  });

  it('a body at the limit is taken, one level more is refused', async () => {
    const data = (levels: number) => `{"nested":${'['.repeat(levels)}1${']'.repeat(levels)}}`;
    const atLimit = await post(
      '/auth/v1/signup',
      `{"email":"nested-at-limit@example.com","password":"correct-horse-battery","data":${data(MAX_JSON_DEPTH - 2)}}`,
    );
    expect(atLimit.status).toBe(200);
    const beyond = await post(
      '/auth/v1/signup',
      `{"email":"nested-beyond@example.com","password":"correct-horse-battery","data":${data(MAX_JSON_DEPTH - 1)}}`,
    );
    expect(beyond.status).toBe(400);
  });
});
