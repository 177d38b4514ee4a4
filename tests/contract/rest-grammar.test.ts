/**
 * The Data API's query grammar under attack, as an anonymous visitor with the anon key: client
 * text never becomes SQL (a `select` cast is one allow-listed type name, quoting is decided once),
 * a select's embeds are bounded in depth and number, and regular expressions that could hold the
 * database (backreferences, repeated groups that repeat, overlong patterns) are refused before
 * they reach it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';

describe.skipIf(isHostedTarget)('Data API query grammar', () => {
  let target: ContractTarget;
  let roles: string[];

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    const { rows } = await target.backend!.db.query<{ rolname: string }>(
      `select rolname from pg_roles where rolname not in ('anon', 'authenticated', 'public')`,
    );
    roles = rows.map((row) => row.rolname);
  });
  afterAll(() => target?.close());

  /** GET as an anonymous visitor; `query` is sent as written (no re-encoding). */
  const anonymous = (query: string) =>
    fetch(`${target.url}/rest/v1/${query}`, {
      headers: { apikey: target.anonKey, authorization: `Bearer ${target.anonKey}` },
      signal: AbortSignal.timeout(5_000),
    });

  it('a cast with SQL after it, behind a quoted name ending in a backslash, is refused and lists no roles', async () => {
    const select = String.raw`"x\\":name::text as y from agents where false union all select rolname from pg_roles union all select name`;
    const response = await anonymous(`agents?select=${encodeURIComponent(select)}`);
    const body = await response.text();
    expect(response.status, body).toBe(400);
    expect(JSON.parse(body)).toMatchObject({ code: 'PGRST100' });
    expect(roles.length).toBeGreaterThan(3);
    expect(roles.filter((role) => body.includes(`"${role}"`))).toEqual([]);
  });

  it('casts are type names from the allow-list; the casts clients use still work', async () => {
    for (const cast of ['text;select 1', 'regclass', 'pg_catalog.text', '"text"', 'text)', 'int4range']) {
      const response = await anonymous(`agents?select=${encodeURIComponent(`name::${cast}`)}&limit=1`);
      expect(response.status, cast).toBe(400);
    }
    const response = await anonymous(
      `agents?select=${encodeURIComponent('id::text,price::float8,name::TEXT')}&limit=1`,
    );
    expect(response.status).toBe(200);
    const [row] = (await response.json()) as Record<string, unknown>[];
    expect(typeof row?.id).toBe('string');
    expect(typeof row?.price).toBe('number');
  });

  it('a regular expression with backreferences is refused at once, the server keeps answering', async () => {
    const pattern = String.raw`^(.*)(.*)(.*)(.*)(.*)\1\2\3\4\5$`;
    const started = Date.now();
    for (const filter of [
      `description=match.${pattern}`,
      `description=imatch.${pattern}`,
      `description=not.match.${pattern}`,
      `description=not.imatch.${pattern}`,
      `description=match(any).${encodeURIComponent(`{"${pattern.replace(/\\/g, '\\\\')}"}`)}`,
      `or=${encodeURIComponent(`(name.eq.x,description.match."${pattern.replace(/\\/g, '\\\\')}")`)}`,
    ]) {
      const query = `agents?select=id&${filter.replace(/[\\^$]/g, (char) => encodeURIComponent(char))}`;
      const response = await anonymous(query);
      const body = await response.text();
      expect(response.status, `${query} → ${body}`).toBe(400);
      expect(JSON.parse(body).code).toBe('PGRST100');
    }
    expect(Date.now() - started).toBeLessThan(5_000);
    const health = await fetch(`${target.url}/rest/v1/agents?select=id&limit=1`, {
      headers: { apikey: target.anonKey },
      signal: AbortSignal.timeout(2_000),
    });
    expect(health.status).toBe(200);
  });

  it('overlong patterns are refused; ordinary patterns and escaped backslashes still match', async () => {
    const long = await anonymous(`agents?select=id&description=match.${'a'.repeat(600)}`);
    expect(long.status).toBe(400);
    const plain = await anonymous(
      `agents?select=id&description=imatch.${encodeURIComponent('^.*(agent|tool).*$')}&limit=1`,
    );
    expect(plain.status).toBe(200);
    // `\\1` is a literal backslash followed by 1, not a backreference.
    const escaped = await anonymous(`agents?select=id&description=match.${encodeURIComponent('x\\\\1')}&limit=1`);
    expect(escaped.status).toBe(200);
  });

  it('a deep and wide tree of embeds is refused before any SQL runs, naming the limit', async () => {
    // Seven levels of categories → agents → categories …, three aliased agents embeds at each.
    const agents = (depth: number): string => (depth <= 0 ? 'id' : `categories(${categories(depth - 1)})`);
    const categories = (depth: number): string =>
      depth <= 0 ? 'name' : [0, 1, 2].map((i) => `a${i}:agents(${agents(depth - 1)})`).join(',');
    const started = Date.now();
    const deep = await anonymous(`categories?select=${encodeURIComponent(categories(7))}`);
    const body = await deep.text();
    expect(deep.status, body).toBe(400);
    expect(JSON.parse(body)).toMatchObject({ code: 'PGRST100', details: expect.stringMatching(/at most 3 deep/) });
    expect(Date.now() - started).toBeLessThan(2_000);

    const wide = await anonymous(
      `categories?select=${encodeURIComponent(['name', ...Array.from({ length: 11 }, (_, i) => `a${i}:agents(id)`)].join(','))}`,
    );
    const wideBody = await wide.text();
    expect(wide.status, wideBody).toBe(400);
    expect(JSON.parse(wideBody)).toMatchObject({ details: expect.stringMatching(/at most 10 resources/) });

    // The shapes the app uses still answer.
    const listing = await anonymous(
      `agents?select=${encodeURIComponent('id, name, agent_stats(purchase_count, avg_rating), agent_versions(version)')}&limit=1`,
    );
    expect(listing.status, await listing.text()).toBe(200);
  });

  it('a value past a database limit (an array of too many dimensions) is a 400, not a 500', async () => {
    const response = await anonymous(`agents?select=id&features=cs.${encodeURIComponent('{{{{{{{{{{{{{{{{{{{{}')}`);
    const body = await response.text();
    expect(response.status, body).toBe(400);
    expect(JSON.parse(body).code).toBe('54000');
  });

  it('a repeated group that repeats, or an oversized count, is refused at once; ordinary patterns work', async () => {
    const started = Date.now();
    for (const pattern of [
      '(.{0,255}){0,255}$',
      '(.{0,100}){0,100}$',
      '(a+)+$',
      '(a*)*',
      '(.{0,9}){2}',
      '(?:x*){0,255}',
      '((ab)+)*',
      'a{256}',
      // Embedded comments and options that hid a repeated repetition from the check.
      '(.{0,126})(?#z1){0,126}',
      '(?x)(.{0,127}) {0,127}',
      String.raw`(?b)\(.\{0,128\}\)\{0,128\}`,
      '(.{0,255})(?#c){0,255}',
    ]) {
      for (const filter of [
        `description=match.${encodeURIComponent(pattern)}`,
        `description=imatch.${encodeURIComponent(pattern)}`,
        `description=match(any).${encodeURIComponent(`{"${pattern}"}`)}`,
        `or=${encodeURIComponent(`(name.eq.x,description.match."${pattern}")`)}`,
      ]) {
        const response = await anonymous(`agents?select=id&${filter}`);
        const body = await response.text();
        expect(response.status, `${filter} → ${body}`).toBe(400);
        expect(JSON.parse(body).code).toBe('PGRST100');
      }
    }
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const pattern of ['(ab)?', '(a+)?x', '^(agent|tool)s?$', '[(a+)]+', 'x{2,255}', '(ab)+']) {
      const response = await anonymous(`agents?select=id&description=imatch.${encodeURIComponent(pattern)}&limit=1`);
      expect(response.status, `${pattern} → ${await response.text()}`).toBe(200);
    }
  });
});
