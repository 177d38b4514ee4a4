/**
 * Vitest's global setup for the `postgres` project (vitest.config.ts): one throwaway PostgreSQL
 * server for the whole run, with a template database holding the bootstrap; every test file then
 * copies the template into a database of its own (`scratchDatabaseUrl`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createBootstrapTemplate, startPostgresServer } from '../../scripts/postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startPostgresServer();
  try {
    const bootstrap = readFileSync(path.resolve('packages/supabase-embedded/src/bootstrap.sql'), 'utf8');
    project.provide('postgresUrl', server.url);
    project.provide('postgresTemplate', await createBootstrapTemplate(server.url, bootstrap));
  } catch (error) {
    server.stop();
    throw error;
  }
  return () => server.stop();
}
