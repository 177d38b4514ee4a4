/**
 * Nothing a client sends may cause a 5xx: seeded random combinations of query keys, operators,
 * malformed values, bodies and headers against the Data API (local target).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';
import { installFixture, USER_A, userToken } from './rest-fixture';
describe.skipIf(isHostedTarget)('Data API fuzz', () => {
  let target: ContractTarget;
  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    await installFixture(target);
  });
  afterAll(() => target?.close());
  const pieces = [
    'select',
    'order',
    'limit',
    'offset',
    'or',
    'and',
    'not.or',
    'title',
    'due',
    'tags',
    'data->>k',
    'data->0',
    'id',
    'projects.name',
    'projects.order',
    'columns',
    'on_conflict',
    'x',
  ];
  const values = [
    'eq.1',
    'in.()',
    'in.(',
    'is.null',
    '(a.eq.1)',
    '(or(a.eq.1))',
    '*,projects(*)',
    'projects!inner(*)',
    '"',
    '\\',
    'cs.{',
    'cd.[1,2)',
    'fts(zzz).x',
    'like(any).{a}',
    'title.desc',
    '-1',
    '99999999999999999',
    '1e309',
    'not.',
    'eq',
    '...projects(id)',
    'a::b',
    'title::int',
    'due.gt.x',
    'ov.{}',
    'sl.[1,2]',
    '(',
    ')',
    ',',
    'match.[',
    'imatch.(',
    'isdistinct.x',
    'adj.x',
    'phfts.x y',
    'wfts(english).x',
    'data->>a',
    '%00',
    'null',
    'eq.%E0%A4%A',
  ];
  let seed = 20261122;
  /** Deterministic pseudo-random numbers (LCG) so a failure can be replayed. */
  function random() {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  }
  function rand<T>(xs: T[]) {
    return xs[Math.floor(random() * xs.length)]!;
  }
  it('no 5xx on random queries', async () => {
    const token = await userToken(target, USER_A);
    const failures: string[] = [];
    for (let i = 0; i < 500; i++) {
      const table = rand(['todos', 'projects', 'agents_with_stats', 'rpc/numbers', 'rpc/add', 'agents', 'nope']);
      const n = 1 + Math.floor(random() * 3);
      const qs = Array.from(
        { length: n },
        () =>
          `${encodeURIComponent(rand(pieces))}=${rand(values).includes('%') ? rand(values) : encodeURIComponent(rand(values))}`,
      ).join('&');
      const method = rand(['GET', 'GET', 'HEAD', 'POST', 'PATCH', 'DELETE']);
      const body =
        method === 'POST' || method === 'PATCH'
          ? rand([
              '{"title":"x"}',
              '[{"title":1},{"title":2}]',
              '{"n":3}',
              '{"a":"x"}',
              '[]',
              '{',
              '"str"',
              'null',
              '{"tags":"notarray"}',
              '{"data":{"k":[1]}}',
              '{"title":"a\\u0000b"}',
              '[{"title":"\\u0000"}]',
              '{"a":"\\u0000"}',
            ])
          : undefined;
      const headers: Record<string, string> = {
        apikey: target.anonKey,
        authorization: `Bearer ${rand([token, target.anonKey, target.serviceRoleKey])}`,
        'content-type': 'application/json',
      };
      if (random() < 0.3)
        headers.prefer = rand([
          'count=exact',
          'return=representation',
          'resolution=merge-duplicates',
          'missing=default,return=representation',
          'return=headers-only',
          'count=planned, return=representation',
        ]);
      if (random() < 0.2) headers.accept = rand(['application/vnd.pgrst.object+json', 'text/csv', 'application/xml']);
      if (random() < 0.1) headers.range = rand(['0-1', '5-', 'x-y']);
      const url = `${target.url}/rest/v1/${table}?${qs}`;
      const response = await fetch(url, { method, headers, body });
      if (response.status >= 500)
        failures.push(
          `${method} ${url} ${body ?? ''} ${JSON.stringify(headers.prefer ?? '')} → ${response.status} ${await response.text()}`,
        );
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
