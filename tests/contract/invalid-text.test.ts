/**
 * A NUL character (U+0000) anywhere a client sends text: Postgres cannot store it, so the
 * embedded backend refuses it where input is parsed, with a 400 in each service's shape. Before,
 * `/auth/v1/token` and `/auth/v1/signup` with `\u0000` in a field answered 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';

describe.skipIf(isHostedTarget)('NUL characters', () => {
  let target: ContractTarget;
  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
  });
  afterAll(() => target?.close());

  const headers = (key: string) => ({
    apikey: key,
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
  });
  const post = (path: string, body: unknown, key = target.anonKey, extra: Record<string, string> = {}) =>
    fetch(`${target.url}${path}`, {
      method: 'POST',
      headers: { ...headers(key), ...extra },
      body: JSON.stringify(body),
    });

  it('Auth: sign-up and password sign-in with \\u0000 in the email or password are a 400', async () => {
    const attempts = [
      post('/auth/v1/signup', { email: 'nul\u0000@demo.test', password: 'correct-horse-1' }),
      post('/auth/v1/signup', { email: 'nul-password@demo.test', password: 'correct\u0000horse' }),
      post('/auth/v1/token?grant_type=password', { email: 'buyer@demo.test', password: 'pass\u0000word' }),
      post('/auth/v1/token?grant_type=password', { email: 'buyer\u0000@demo.test', password: 'password123' }),
      post('/auth/v1/signup', { email: 'nul-data@demo.test', password: 'correct-horse-1', data: { bio: 'a\u0000' } }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: 400,
        error_code: 'validation_failed',
        msg: 'Text cannot contain null characters (U+0000).',
      });
    }
    // Nothing was created.
    const users = await fetch(`${target.url}/auth/v1/admin/users?per_page=1000`, {
      headers: headers(target.serviceRoleKey),
    });
    const list = (await users.json()) as { users: { email: string }[] };
    expect(list.users.map((user) => user.email).filter((email) => email.startsWith('nul'))).toEqual([]);
  });

  it('Auth: an encoded NUL in a query value is a 400', async () => {
    const response = await fetch(`${target.url}/auth/v1/verify?type=signup&token=%00&redirect_to=x`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error_code: 'validation_failed' });
  });

  it('Data API: \\u0000 in a JSON body is PostgREST’s 400 22P05; in a filter value a 400 22021', async () => {
    const insert = await post('/rest/v1/newsletter_subscribers', { email: 'nul\u0000@demo.test' });
    expect(insert.status).toBe(400);
    expect(await insert.json()).toEqual({
      code: '22P05',
      details: '\\u0000 cannot be converted to text.',
      hint: null,
      message: 'unsupported Unicode escape sequence',
    });

    for (const query of ['agents?name=eq.%00', 'agents?or=(name.ilike.*%00*)', 'agents?select=name&name=like.a%00b']) {
      const read = await fetch(`${target.url}/rest/v1/${query}`, { headers: headers(target.anonKey) });
      expect(read.status, query).toBe(400);
      expect(await read.json()).toMatchObject({ code: '22021' });
    }
  });

  it('Storage: a NUL in an object name, a JSON body or the metadata is a 400', async () => {
    const service = headers(target.serviceRoleKey);
    const created = await post('/storage/v1/bucket', { name: 'nul-test', public: true }, target.serviceRoleKey);
    expect(created.status).toBe(200);
    const name = await fetch(`${target.url}/storage/v1/object/nul-test/a%00b.png`, {
      method: 'POST',
      headers: { ...service, 'content-type': 'image/png' },
      body: new Uint8Array([137, 80, 78, 71]),
    });
    expect(name.status).toBe(400);
    expect(await name.json()).toMatchObject({
      statusCode: '400',
      message: 'Text cannot contain null characters (U+0000).',
    });

    const bucket = await post('/storage/v1/bucket', { name: 'nul\u0000bucket' }, target.serviceRoleKey);
    expect(bucket.status).toBe(400);

    const metadata = await fetch(`${target.url}/storage/v1/object/nul-test/nul-metadata.png`, {
      method: 'POST',
      headers: {
        ...service,
        'content-type': 'image/png',
        'x-metadata': Buffer.from(JSON.stringify({ note: 'a\u0000' })).toString('base64'),
      },
      body: new Uint8Array([137, 80, 78, 71]),
    });
    expect(metadata.status).toBe(400);
  });
});
