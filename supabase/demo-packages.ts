/**
 * The demo agents' package files. supabase/seed.sql gives every seeded agent one or two versions
 * whose files live at their package path (`<seller_id>/<agent_id>/<version>/<slug>.json`,
 * app/lib/package-path.ts) in the private Storage bucket 'agent-packages', with `file_size = 0`
 * meaning "not written yet" (SQL cannot write Storage objects; a package the app stores is never
 * empty, and a database that had the older `demo/` paths got 0 again when they moved). This module
 * writes them: a small JSON manifest per version (its prompts, tools and configuration), then the
 * real size on the version row. The embedded backend runs it at start in demo mode
 * (server/app.ts); a seeded hosted project runs `npm run db:seed-packages`. Idempotent: a second
 * run finds nothing to write and costs one query.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { isPackagePath } from '../app/lib/package-path';
import { PACKAGES_BUCKET } from '../app/lib/storage-buckets';
import type { Database } from '../app/types/database';

export const MANIFEST_SCHEMA = 'https://agentmarket.dev/schemas/agent-package/v1';

export interface DemoAgent {
  name: string;
  description: string;
  category: string;
  features: readonly string[];
}

export interface DemoManifest {
  $schema: string;
  name: string;
  version: string;
  category: string;
  description: string;
  prompts: { id: string; role: 'system' | 'user'; content: string }[];
  tools: { name: string; description: string }[];
  configuration: { model: string; temperature: number; max_tokens: number };
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'tool'
  );
}

/** The manifest of one version of a demo agent: the same input gives the same bytes. */
export function demoManifest(agent: DemoAgent, version: string): DemoManifest {
  const features = agent.features.filter((feature) => feature.trim() !== '');
  return {
    $schema: MANIFEST_SCHEMA,
    name: agent.name,
    version,
    category: agent.category,
    description: agent.description,
    prompts: [
      {
        id: 'system',
        role: 'system',
        content: `You are ${agent.name}, an AI agent for ${agent.category}. ${agent.description}`.trim(),
      },
      ...features.map((feature) => ({
        id: slug(feature),
        role: 'user' as const,
        content: `Use your "${feature}" capability on the input below and explain what you did.`,
      })),
    ],
    tools: features.map((feature) => ({ name: slug(feature), description: feature })),
    configuration: { model: 'any-chat-completion-model', temperature: 0.3, max_tokens: 1024 },
  };
}

/** The manifest as the stored file: pretty-printed JSON with a final newline. */
export function demoManifestBytes(agent: DemoAgent, version: string): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(demoManifest(agent, version), null, 2)}\n`);
}

const CONCURRENCY = 8;

/**
 * Writes every demo package not written yet (file_size 0) and records its size. `service` must be
 * a service-role client. Returns how many files were written.
 */
export async function writeDemoPackages(service: SupabaseClient<Database>): Promise<number> {
  const pending = await service
    .from('agent_versions')
    .select('id, version, file_path, agents(name, description, category, features)')
    .eq('file_size', 0);
  if (pending.error) throw new Error(`Demo packages could not be listed: ${pending.error.message}`);
  // Only package paths (the database allows no other): the path goes into a service-role upload.
  const rows = pending.data.filter((row) => isPackagePath(row.file_path));
  let next = 0;
  async function worker() {
    while (next < rows.length) {
      const row = rows[next++]!;
      if (!row.agents) continue;
      const bytes = demoManifestBytes(row.agents, row.version);
      const upload = await service.storage
        .from(PACKAGES_BUCKET)
        .upload(row.file_path, bytes, { upsert: true, contentType: 'application/json' });
      if (upload.error) throw new Error(`Demo package ${row.file_path} could not be written: ${upload.error.message}`);
      const update = await service.from('agent_versions').update({ file_size: bytes.byteLength }).eq('id', row.id);
      if (update.error) throw new Error(`Demo package ${row.file_path} size not recorded: ${update.error.message}`);
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, rows.length) }, worker));
  return rows.filter((row) => row.agents).length;
}
