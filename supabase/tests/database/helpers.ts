/** Shared helpers for the database tests: a fresh seeded database and role-scoped queries. */
import path from 'node:path';
import { scratchDatabaseUrl } from '../../../tests/support/database-target';
import {
  openDatabase,
  withClaims,
  type Claims,
  type Database,
  type Transaction,
} from '../../../packages/supabase-embedded/src/database';

export const DEMO = {
  buyer: '00000000-0000-4000-8000-000000000001',
  seller: '00000000-0000-4000-8000-000000000002',
  admin: '00000000-0000-4000-8000-000000000003',
  otherSeller: '00000000-0000-4000-8000-000000000011',
  otherBuyer: '00000000-0000-4000-8000-000000000021',
} as const;

/** Agent ids of the seed: agent n is a0000000-0000-4000-8000-<n padded to 12>. */
export function seedAgentId(n: number): string {
  return `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

/**
 * A new database of the test's target (PGlite in memory, or a fresh database on the PostgreSQL
 * server of the `postgres` project), migrated and seeded from `supabaseDir`.
 */
export async function openTestDatabase(supabaseDir = path.resolve('supabase')): Promise<Database> {
  const { db } = await openDatabase({ dataDir: null, databaseUrl: await scratchDatabaseUrl(), supabaseDir });
  return db;
}

export const openSeededDatabase = () => openTestDatabase();

export const anon: Claims = { role: 'anon' };
export const serviceRole: Claims = { role: 'service_role' };
export function user(sub: string): Claims {
  return { role: 'authenticated', sub, aud: 'authenticated' };
}

class Rollback extends Error {
  constructor(readonly value: unknown) {
    super('rollback');
  }
}

/** Runs `work` in a transaction as the database owner, then rolls it back. */
export function rolledBackTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return returnRolledBack((runner) => db.transaction(runner), work);
}

/** Runs `work` like withClaims, then rolls the transaction back so tests do not leak writes. */
export function rolledBack<T>(db: Database, claims: Claims, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return returnRolledBack((runner) => withClaims(db, claims, runner), work);
}

async function returnRolledBack<T>(
  open: (runner: (tx: Transaction) => Promise<never>) => Promise<unknown>,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  try {
    await open(async (tx) => {
      throw new Rollback(await work(tx));
    });
  } catch (error) {
    if (error instanceof Rollback) return error.value as T;
    throw error;
  }
  throw new Error('unreachable');
}

/** Rows of a query run as `claims`, rolled back. */
export async function rowsAs<T = Record<string, unknown>>(
  db: Database,
  claims: Claims,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return rolledBack(db, claims, async (tx) => (await tx.query<T>(sql, params)).rows);
}

/** The SQLSTATE a query fails with as `claims` (undefined when it succeeds). */
export async function errorCodeAs(
  db: Database,
  claims: Claims,
  sql: string,
  params: unknown[] = [],
): Promise<string | undefined> {
  try {
    await rolledBack(db, claims, (tx) => tx.query(sql, params));
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/** affectedRows of a write run as `claims`, rolled back. */
export async function affectedAs(db: Database, claims: Claims, sql: string, params: unknown[] = []): Promise<number> {
  return rolledBack(db, claims, async (tx) => (await tx.query(sql, params)).affectedRows ?? 0);
}
