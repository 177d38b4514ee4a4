/**
 * The server-backed mode (`DATABASE_URL`): the same `Database` the services use over
 * PGlite, here over a PostgreSQL 15+ server through a `pg` connection pool. Several app
 * processes can share one such database; each keeps its own pool.
 *
 * Values come back as PGlite returns them, so that no service can tell the two apart: `int8` as
 * a number (PGlite's choice; the ids and counts here stay far below 2^53), `date` and
 * `timestamp` read as UTC whatever the server process's time zone.
 */
import pg from 'pg';
import type { Database, QueryResult, Queryable, Transaction, TransactionOptions } from './database';

/** How long a lost LISTEN connection waits before it connects again. */
const LISTEN_RETRY_MS = 1_000;

const OID = { INT8: 20, INT8_ARRAY: 1016, DATE: 1082, TIMESTAMP: 1114 } as const;

const parseTextInt8Array = pg.types.getTypeParser(
  OID.INT8_ARRAY as Parameters<typeof pg.types.getTypeParser>[0],
  'text',
) as (value: string) => (string | null)[];
const parseInt8Array = (value: string) =>
  parseTextInt8Array(value).map((item) => (item === null ? null : Number(item)));

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (format !== 'binary') {
      if (oid === OID.INT8) return Number;
      if (oid === OID.INT8_ARRAY) return parseInt8Array;
      if (oid === OID.DATE) return (value: string) => utcDate(`${value}T00:00:00`);
      if (oid === OID.TIMESTAMP) return (value: string) => utcDate(value.replace(' ', 'T'));
    }
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

function utcDate(isoWithoutZone: string): Date | number | string {
  if (isoWithoutZone === 'infinity') return Infinity; // as PGlite (and pg for timestamptz)
  if (isoWithoutZone === '-infinity') return -Infinity;
  const date = new Date(`${isoWithoutZone}Z`);
  return Number.isNaN(date.getTime()) ? isoWithoutZone : date;
}

export interface ServerDatabaseOptions {
  /** `postgres://user:password@host:port/database` (a role that owns the schemas, e.g. `postgres`). */
  url: string;
  /** Connections in this process's pool (default 10). */
  poolSize?: number;
  log?: (line: string) => void;
}

export function connectServerDatabase(options: ServerDatabaseOptions): Database {
  const log = options.log ?? console.error;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    types,
    application_name: 'agent-marketplace',
  });
  // An idle connection the server drops (restart, idle timeout) must not take the process down.
  pool.on('error', (error) => log(`database connection lost: ${error.message}`));
  const listeners = new Set<() => Promise<void>>();

  const db: Database = {
    kind: 'server',
    deadlineMs: null,
    anonDeadlineMs: null,
    ...queryable(pool),
    async transaction<T>(work: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T> {
      const client = await pool.connect();
      // Once committed, rolled back or released, the handle refuses everything: the connection
      // may already serve another request.
      let ended = false;
      try {
        // A request's transaction: PostgreSQL ends a statement past the deadline itself (ADR 031).
        const limit =
          typeof options?.deadline === 'number' ? options.deadline : options?.deadline ? db.deadlineMs : null;
        await client.query(limit === null ? 'begin' : `begin; set local statement_timeout = ${Math.ceil(limit)}`);
        const statements = queryable(client);
        const open = () => {
          if (ended) throw new Error('Transaction is closed');
        };
        const tx: Transaction = {
          async query<R>(sql: string, params?: unknown[], options?: { last?: boolean }) {
            open();
            if (!options?.last) return statements.query<R>(sql, params);
            // The COMMIT goes out behind the statement at once (the client queues it): after a
            // failed statement it ends the aborted transaction as a ROLLBACK.
            ended = true;
            const [result] = await Promise.all([statements.query<R>(sql, params), client.query('commit')]);
            return result;
          },
          async exec(sql: string) {
            open();
            await statements.exec(sql);
          },
        };
        const result = await work(tx);
        if (!ended) {
          ended = true;
          await client.query('commit');
        }
        return result;
      } catch (error) {
        ended = true;
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, handler, onResume) {
      // LISTEN needs a connection of its own for as long as it listens (not one from the pool).
      // A lost one (server restart, idle cut, pg_terminate_backend) is replaced every second
      // until it is back; notifications sent meanwhile are lost, which `onResume` is told.
      let client: pg.Client | null = null;
      let stopped = false;
      const connect = async (resuming: boolean) => {
        const next = new pg.Client({ connectionString: options.url, types });
        let lost = false;
        const reconnect = () => {
          if (lost || stopped) return;
          lost = true;
          client = null;
          setTimeout(() => {
            if (stopped) return;
            connect(true).then(
              () => {
                log(`LISTEN ${channel} resumed`);
                onResume?.();
              },
              () => {},
            );
          }, LISTEN_RETRY_MS).unref();
        };
        next.on('error', (error) => log(`LISTEN ${channel} connection lost: ${error.message}`));
        next.on('end', reconnect);
        next.on('notification', (message) => {
          if (message.channel === channel) handler(message.payload ?? '');
        });
        try {
          await next.connect();
          await next.query(`listen ${pg.escapeIdentifier(channel)}`);
        } catch (error) {
          // A first connection that fails is the caller's error; a resumption tries again.
          if (!resuming) stopped = true;
          reconnect();
          await next.end().catch(() => {});
          throw error;
        }
        client = next;
        listeners.add(stop);
      };
      const stop = async () => {
        stopped = true;
        listeners.delete(stop);
        await client?.end().catch(() => {});
      };
      await connect(false);
      return stop;
    },
    async withSessionLock<T>(key: string, work: () => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock(hashtext($1))', [key]);
        try {
          return await work();
        } finally {
          await client.query('select pg_advisory_unlock(hashtext($1))', [key]).catch(() => {});
        }
      } finally {
        client.release();
      }
    },
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
  return db;
}

function queryable(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      const result = await client.query(sql, params);
      return {
        rows: result.rows as T[],
        affectedRows: result.rowCount ?? 0,
        fields: result.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })),
      };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}
