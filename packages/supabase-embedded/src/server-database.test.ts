/**
 * The server-backed `Database` (ADR 021) against a real PostgreSQL server (the `postgres` vitest
 * project): it returns what PGlite returns for the same SQL, a lost LISTEN connection comes
 * back by itself, and a request's statement past its deadline ends (ADR 031), the anonymous role's
 * deadline shorter (ADR 032).
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgresServer, scratchDatabaseUrl } from '../../../tests/support/database-target';
import { withClaims, type Database } from './database';
import { connectServerDatabase } from './server-database';

describe.skipIf(!onPostgresServer)('the server-backed database', () => {
  let db: Database;
  const lines: string[] = [];
  beforeAll(async () => {
    db = connectServerDatabase({ url: (await scratchDatabaseUrl())!, log: (line) => lines.push(line) });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('gives the same values as PGlite for every type the services read', async () => {
    const sql = `select 9007199254740991::int8 as big, 1.50::numeric as price, 7::int4 as n, 1.5::float8 as f,
        '2026-11-26'::date as day, '2026-11-26 10:20:30.5'::timestamp as local_time,
        '2026-11-26 10:20:30+02'::timestamptz as moment, '{"a":[1,2]}'::jsonb as doc,
        '{1,2}'::int8[] as ids, '{x,y}'::text[] as tags, true as yes, null::text as nothing,
        'infinity'::timestamp as forever`;
    const pglite = await PGlite.create();
    try {
      const expected = (await pglite.query(sql)).rows[0];
      const actual = (await db.query(sql)).rows[0];
      expect(actual).toEqual(expected);
      expect(actual).toMatchObject({ big: 9007199254740991, price: '1.50', ids: [1, 2] });
    } finally {
      await pglite.close();
    }
  });

  it('reports rows a write touched, and rolls a failed transaction back', async () => {
    await db.exec('create table counter (n int primary key); insert into counter values (1), (2)');
    expect((await db.query('update counter set n = n + 10')).affectedRows).toBe(2);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('delete from counter');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await db.query<{ n: number }>('select n from counter order by n')).rows).toEqual([{ n: 11 }, { n: 12 }]);
  });

  it('commits with a statement marked last, and rolls back when that statement fails', async () => {
    await db.exec('create table marks (n int primary key)');
    const read = await db.transaction(async (tx) => {
      await tx.query('insert into marks values (1)');
      const answer = await tx.query<{ n: number }>('select count(*)::int as n from marks', [], { last: true });
      await expect(tx.query('select 1')).rejects.toThrow('Transaction is closed');
      await expect(tx.exec('select 1')).rejects.toThrow('Transaction is closed');
      return answer.rows[0]!.n;
    });
    expect(read).toBe(1);
    const duplicate = await db
      .transaction(async (tx) => {
        await tx.query('insert into marks values (2)');
        return tx.query('insert into marks values (1)', [], { last: true });
      })
      .catch((caught: unknown) => caught);
    expect(duplicate).toMatchObject({ code: '23505' });
    expect((await db.query<{ n: number }>('select n from marks order by n')).rows).toEqual([{ n: 1 }]);
  });

  it("ends a request's statement past its deadline with 57014", async () => {
    db.deadlineMs = 300;
    try {
      const started = Date.now();
      const error = await withClaims(db, { role: 'anon' }, (tx) => tx.query('select pg_sleep(10)')).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      db.deadlineMs = null;
    }
    // Outside requests (the start-up, migrations) no limit is set.
    const { rows } = await db.query<{ limit: string }>(`select current_setting('statement_timeout') as limit`);
    expect(rows).toEqual([{ limit: '0' }]);
  });

  it("gives an anonymous request's transaction its own, shorter statement_timeout", async () => {
    db.deadlineMs = 8_000;
    db.anonDeadlineMs = 3_000;
    try {
      const limitAs = async (role: string) =>
        (
          await withClaims(
            db,
            { role, sub: role === 'anon' ? undefined : '00000000-0000-4000-8000-000000000001' },
            (tx) => tx.query<{ limit: string }>(`select current_setting('statement_timeout') as limit`),
          )
        ).rows[0]!.limit;
      expect(await limitAs('anon')).toBe('3s');
      expect(await limitAs('authenticated')).toBe('8s');
      expect(await limitAs('service_role')).toBe('8s');
    } finally {
      db.deadlineMs = null;
      db.anonDeadlineMs = null;
    }
  });

  it('listens again after its connection is cut, and says so', async () => {
    const received: string[] = [];
    let resumed = 0;
    const stop = await db.listen(
      'test_changes',
      (payload) => received.push(payload),
      () => (resumed += 1),
    );
    await db.query(`select pg_notify('test_changes', 'before')`);
    await expect.poll(() => received).toEqual(['before']);

    const cut = await db.query<{ cut: boolean }>(
      `select pg_terminate_backend(pid) as cut from pg_stat_activity where query = 'listen "test_changes"'`,
    );
    expect(cut.rows).toEqual([{ cut: true }]);
    await expect.poll(() => resumed, { timeout: 10_000 }).toBe(1);
    expect(lines).toContain('LISTEN test_changes resumed');

    await db.query(`select pg_notify('test_changes', 'after')`);
    await expect.poll(() => received).toEqual(['before', 'after']);
    await stop();
  });
});
