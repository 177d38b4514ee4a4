/**
 * The server-backed rows (ADR 021): the same app with `DATABASE_URL` on a throwaway PostgreSQL
 * 15+ server and `WORKERS=2`, seeded with the same agents through the Data API as the embedded
 * run, so its pages can be measured in the same rounds as F. Skipped, with a line saying so, when
 * no PostgreSQL server is installed.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createScratchDatabase, findPostgresBin, startPostgresServer } from '../../scripts/postgres-server.js';
import { apiKeyFromSecret } from './keys.js';
import { startServer } from './processes.js';
import { seed } from './seed.js';

export const serverBackedAvailable = () => findPostgresBin() !== null;

/** @returns {Promise<{ origin: string, pid: number, seeded: object, stop(): Promise<void> }>} */
export async function startServerBacked({ cwd, dataDir, agents, workers = 2 }) {
  const postgres = await startPostgresServer();
  try {
    const databaseUrl = await createScratchDatabase(postgres.url);
    const folder = path.join(dataDir, 'server-backed');
    mkdirSync(folder, { recursive: true });
    const server = await startServer({
      cwd,
      dataDir: folder,
      env: { DATABASE_URL: databaseUrl, STORAGE_DIR: path.join(folder, 'storage'), WORKERS: String(workers) },
    });
    const sql = async (text) => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query(text)).rows;
      } finally {
        await client.end();
      }
    };
    const [secret] = await sql(`select value from auth.local_secrets where name = 'jwt_secret'`);
    const seeded = await seed(server.origin, await apiKeyFromSecret(secret.value, 'service_role'), agents);
    // Fresh statistics after the bulk load, as autovacuum would give a little later.
    await sql('analyze');
    return {
      origin: server.origin,
      pid: server.pid,
      seeded,
      async stop() {
        await server.stop();
        postgres.stop();
      },
    };
  } catch (error) {
    postgres.stop();
    throw error;
  }
}
