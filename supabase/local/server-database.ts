/**
 * The server-backed mode (`DATABASE_URL`, issue #16): the same `Database` the services use over
 * PGlite, here over a PostgreSQL 15+ server through a `pg` connection pool. Several app
 * processes can share one such database; each keeps its own pool.
 *
 * Values come back as PGlite returns them, so that no service can tell the two apart: `int8` as
 * a number (PGlite's choice; the ids and counts here stay far below 2^53), `date` and
 * `timestamp` read as UTC whatever the server process's time zone.
 */
import pg from 'pg';
import type { Database, QueryResult, Queryable } from './database';

const OID = { INT8: 20, INT8_ARRAY: 1016, DATE: 1082, TIMESTAMP: 1114 } as const;

const parseInt8Array = (value: string) => pg.types.arrayParser(value, Number) as number[];

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

function utcDate(isoWithoutZone: string): Date | string {
  const date = new Date(`${isoWithoutZone}Z`);
  return Number.isNaN(date.getTime()) ? isoWithoutZone : date; // 'infinity' stays text, as pg does
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
  const listeners: pg.Client[] = [];

  return {
    kind: 'server',
    ...queryable(pool),
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work(queryable(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, handler) {
      // LISTEN needs a connection of its own for as long as it listens (not one from the pool).
      const client = new pg.Client({ connectionString: options.url, types });
      client.on('error', (error) => log(`LISTEN ${channel} connection lost: ${error.message}`));
      client.on('notification', (message) => {
        if (message.channel === channel) handler(message.payload ?? '');
      });
      await client.connect();
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      listeners.push(client);
      return async () => {
        listeners.splice(listeners.indexOf(client), 1);
        await client.end().catch(() => {});
      };
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
      await Promise.all(listeners.splice(0).map((client) => client.end().catch(() => {})));
      await pool.end();
    },
  };
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
