/**
 * PGlite in its own thread (ADR 031): the same values and transactions as PGlite on the main
 * thread, and a statement past its deadline ended by starting the thread again on the same
 * files, without losing what was committed, while the main thread keeps running.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { withClaims } from './database';
import { openPGliteThread, StatementTimeoutError, type PGliteThreadDatabase } from './pglite-thread';

const workerFile = path.resolve('packages/supabase-embedded/src/pglite-worker.js');
const temp = mkdtempSync(path.join(os.tmpdir(), 'pglite-thread-test-'));
let db: PGliteThreadDatabase;

/** A statement as a request runs it: in a transaction with a deadline. */
const request = <T = Record<string, unknown>>(sql: string, params?: unknown[]) =>
  db.transaction((tx) => tx.query<T>(sql, params), { deadline: true });

beforeAll(async () => {
  db = await openPGliteThread({ dataPath: path.join(temp, 'pgdata'), workerFile, log: () => {} });
  await db.exec('create table notes (id int primary key, body text)');
}, 180_000); // a new database from nothing: seconds, a minute on a loaded machine
afterAll(async () => {
  await db?.close();
  rmSync(temp, { recursive: true, force: true });
});

describe('PGlite in a worker thread', () => {
  it('gives the values PGlite gives on the main thread', async () => {
    const sql = `select now()::timestamptz as at, '2026-01-02'::date as day, 12345678901::int8 as big,
                        12.50::numeric as price, 3::int as n, 1.5::float8 as ratio, true as yes, null::text as nothing,
                        '\\x0102ff'::bytea as bytes, '{"a":[1,{"b":null}]}'::jsonb as doc, array[1,2]::int[] as list,
                        'infinity'::timestamptz as forever, gen_random_uuid() is not null as uuid`;
    const local = await PGlite.create();
    try {
      const here = await local.query(sql);
      const there = await db.query(sql);
      const { at: hereAt, ...hereRest } = here.rows[0] as Record<string, unknown>;
      const { at: thereAt, ...thereRest } = there.rows[0] as Record<string, unknown>;
      expect(thereAt).toBeInstanceOf(Date);
      expect(hereAt).toBeInstanceOf(Date);
      expect(thereRest).toEqual(hereRest);
      expect((thereRest as { bytes: unknown }).bytes).toBeInstanceOf(Uint8Array);
      expect(there.fields).toEqual(here.fields);
    } finally {
      await local.close();
    }
  }, 120_000);

  it('gives PostgreSQL errors with their fields', async () => {
    await db.query('insert into notes values (1, $1)', ['one']);
    const error = await db.query('insert into notes values (1, $1)', ['again']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', severity: 'ERROR', constraint: 'notes_pkey' });
  });

  it('commits a transaction whole, rolls back a failed one, and runs other statements after it', async () => {
    const other = db.query<{ n: number }>('select count(*)::int as n from notes');
    await db.transaction(async (tx) => {
      await tx.query('insert into notes values (2, $1)', ['two']);
      await tx.query('insert into notes values (3, $1)', ['three']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into notes values (4, $1)', ['four']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await other).rows[0]!.n).toBe(1);
    const { rows } = await db.query<{ id: number }>('select id from notes order by id');
    expect(rows.map((row) => row.id)).toEqual([1, 2, 3]);
  });

  it("runs a transaction's steps sent without waiting in order, and commits with a statement marked last", async () => {
    await db.transaction(async (tx) => {
      const write = tx.query('insert into notes values (30, $1)', ['thirty']); // not awaited
      const read = tx.query<{ n: number }>('select count(*)::int as n from notes where id = 30', [], { last: true });
      await write;
      expect((await read).rows[0]!.n).toBe(1);
      await expect(tx.query('select 1')).rejects.toThrow('Transaction is closed');
    });
    expect((await db.query('select body from notes where id = 30')).rows).toEqual([{ body: 'thirty' }]);

    // A last statement that fails rolls back what came before it.
    const duplicate = await db
      .transaction(async (tx) => {
        await tx.query('insert into notes values (31, $1)', ['thirty-one']);
        return tx.query('insert into notes values (30, $1)', ['again'], { last: true });
      })
      .catch((caught: unknown) => caught);
    expect(duplicate).toMatchObject({ code: '23505' });
    expect((await db.query('select id from notes where id = 31')).rows).toEqual([]);
  });

  it("keeps a request's statements from running when its claims could not be set, and says why", async () => {
    await db.exec('create role anon nologin; grant insert on notes to anon');
    const error = await withClaims(
      db,
      { role: 'anon' },
      (tx) => tx.query("insert into notes values (32, 'thirty-two')"),
      {
        statement_timeout: 'soon',
      },
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ message: expect.stringContaining('statement_timeout') });
    expect((await db.query('select id from notes where id = 32')).rows).toEqual([]);
    // The same request with its claims set runs as the role.
    await withClaims(db, { role: 'anon' }, (tx) => tx.query("insert into notes values (32, 'thirty-two')"));
    expect((await db.query('select id from notes where id = 32')).rows).toEqual([{ id: 32 }]);
  });

  it('delivers notifications to listeners, after a restart too', async () => {
    const heard: string[] = [];
    let resumed = 0;
    const stop = await db.listen(
      'test_channel',
      (payload) => heard.push(payload),
      () => resumed++,
    );
    await db.query(`select pg_notify('test_channel', 'before')`);
    db.deadlineMs = 300;
    await expect(request('select pg_sleep(3)')).rejects.toBeInstanceOf(StatementTimeoutError);
    db.deadlineMs = null;
    await db.query(`select pg_notify('test_channel', 'after')`);
    expect(heard).toEqual(['before', 'after']);
    expect(resumed).toBe(1);
    await stop();
  });

  it('ends a statement past its deadline and keeps every committed write, the main thread free meanwhile', async () => {
    const restarts = db.restarts;
    await db.query('insert into notes values (10, $1)', ['acknowledged']);
    db.deadlineMs = 500;
    try {
      const started = Date.now();
      const slow = request('select pg_sleep(30)').catch((error: unknown) => error);
      const queued = db.query<{ body: string }>('select body from notes where id = 10');
      // The main thread is not held: a timer fires on time while the statement runs.
      const tick = await new Promise<number>((resolve) => setTimeout(() => resolve(Date.now() - started), 100));
      expect(tick).toBeLessThan(400);
      const error = await slow;
      expect(error).toBeInstanceOf(StatementTimeoutError);
      expect(error).toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
      expect(Date.now() - started).toBeLessThan(10_000);
      // A statement that waited its turn runs on the new thread, and sees the committed row.
      expect((await queued).rows).toEqual([{ body: 'acknowledged' }]);
      expect(db.restarts).toBe(restarts + 1);
    } finally {
      db.deadlineMs = null;
    }
  });

  it('ends a statement that computes without pause (no sleep, no I/O) just the same', async () => {
    db.deadlineMs = 500;
    try {
      const started = Date.now();
      const error = await request(
        `select count(*) from generate_series(1, 2000000000) as n where n::text ~ '^(.*)(.*)\\1\\2$'`,
      ).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StatementTimeoutError);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect((await db.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      db.deadlineMs = null;
    }
  });

  it('gives no deadline to statements outside requests (start-up, maintenance)', async () => {
    db.deadlineMs = 300;
    try {
      await db.query('select pg_sleep(1)');
      await db.transaction((tx) => tx.query('select pg_sleep(1)'));
    } finally {
      db.deadlineMs = null;
    }
  });

  it('fails a transaction whose statement passed its deadline, and keeps none of it', async () => {
    db.deadlineMs = 500;
    try {
      const outcome = await db
        .transaction(
          async (tx) => {
            await tx.query('insert into notes values (20, $1)', ['never']);
            await tx.query('select pg_sleep(30)');
          },
          { deadline: true },
        )
        .catch((error: unknown) => error);
      expect(outcome).toBeInstanceOf(StatementTimeoutError);
    } finally {
      db.deadlineMs = null;
    }
    expect((await db.query('select 1 from notes where id = 20')).rows).toEqual([]);
    // The next transaction is a fresh one on the new thread.
    await db.transaction((tx) => tx.query('insert into notes values (21, $1)', ['later']));
    expect((await db.query('select body from notes where id = 21')).rows).toEqual([{ body: 'later' }]);
  });

  it('keeps an in-memory database through a restart (its files are in a temporary directory)', async () => {
    const memory = await openPGliteThread({ dataPath: null, workerFile, log: () => {} });
    try {
      await memory.exec(`create table kept (v text); insert into kept values ('still here')`);
      memory.deadlineMs = 300;
      await expect(
        memory.transaction((tx) => tx.query('select pg_sleep(30)'), { deadline: true }),
      ).rejects.toBeInstanceOf(StatementTimeoutError);
      expect((await memory.query('select v from kept')).rows).toEqual([{ v: 'still here' }]);
    } finally {
      await memory.close();
    }
  }, 180_000);
});
