/** Nothing a client sends to Storage may cause a 5xx: seeded random routes, verbs, bodies and tokens. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';

describe.skipIf(isHostedTarget)('Storage fuzz', () => {
  let target: ContractTarget;
  beforeAll(async () => {
    target = await startContractTarget({ seed: false });
    await fetch(`${target.url}/storage/v1/bucket`, {
      method: 'POST',
      headers: {
        apikey: target.serviceRoleKey,
        authorization: `Bearer ${target.serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'b', public: true }),
    });
  });
  afterAll(() => target?.close());
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const rand = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  it('storage no 5xx', async () => {
    const failures: string[] = [];
    const paths = [
      'bucket',
      'bucket/b',
      'bucket/nope',
      'bucket/b/empty',
      'bucket/%00',
      'object/b/a.txt',
      'object/b/x/y.txt',
      'object/b',
      'object/nope/a',
      'object/public/b/a.txt',
      'object/public/nope/a',
      'object/sign/b/a.txt',
      'object/sign/b',
      'object/list/b',
      'object/list/nope',
      'object/move',
      'object/copy',
      'object/info/b/a.txt',
      'object/authenticated/b/a.txt',
      'object/b/%00',
      'object/b/..',
      'object/%E0%A4%A/x',
      'object/b/a%20b.txt',
      'object',
      'object/upload/sign/b/a.txt',
      'render/image/public/b/a.txt',
      '',
    ];
    const bodies = [
      '',
      '{}',
      '{',
      '[]',
      'null',
      '"x"',
      '{"name":"c"}',
      '{"name":"b"}',
      '{"name":"../x"}',
      '{"name":"a\\u0000b"}',
      '{"prefix":"\\u0000","limit":1}',
      '{"expiresIn":60,"paths":["a\\u0000.txt"]}',
      '{"id":"d","name":"d","file_size_limit":"10XB"}',
      '{"id":"e","name":"e","file_size_limit":-5}',
      '{"allowed_mime_types":["x"]}',
      '{"allowed_mime_types":"x"}',
      '{"prefixes":["a.txt",1]}',
      '{"prefixes":["a.txt","x/y.txt"]}',
      '{"expiresIn":60}',
      '{"expiresIn":"abc"}',
      '{"expiresIn":60,"paths":["a.txt",null]}',
      '{"expiresIn":60,"paths":["a.txt"]}',
      '{"bucketId":"b","sourceKey":"a.txt","destinationKey":"z.txt"}',
      '{"bucketId":"b","sourceKey":"a.txt","destinationKey":"../z"}',
      '{"bucketId":1}',
      '{"prefix":"x","limit":"a","sortBy":{"column":"zz"}}',
      '{"prefix":"","limit":5,"offset":1e400}',
      'hello',
      '{"public":"yes"}',
    ];
    for (let i = 0; i < 500; i++) {
      const method = rand(['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH']);
      const key = rand([target.anonKey, target.serviceRoleKey]);
      const headers: Record<string, string> = {
        apikey: key,
        authorization: `Bearer ${rand([key, key, 'bad.tok.en', 'x'])}`,
        'content-type': rand(['application/json', 'text/plain', 'multipart/form-data; boundary=zz', 'image/png']),
      };
      if (random() < 0.3) headers['x-upsert'] = rand(['true', 'false', 'maybe']);
      const path = rand(paths);
      const body = method === 'GET' || method === 'HEAD' ? undefined : rand(bodies);
      const url = `${target.url}/storage/v1/${path}${random() < 0.2 ? '?token=' + rand(['x', 'a.b.c', '']) : ''}`;
      const r = await fetch(url, { method, headers, body });
      if (r.status >= 500)
        failures.push(`${method} ${url} ${headers['content-type']} ${body} → ${r.status} ${await r.text()}`);
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
