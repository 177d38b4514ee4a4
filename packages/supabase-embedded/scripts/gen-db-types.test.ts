/**
 * The committed `app/types/database.ts` is what the migrations generate: regenerates it in
 * memory (fresh database, migrations only) and compares. Fails when a migration changed and
 * `npm run db:types` was not run, so the types the typecheck relies on cannot drift from SQL.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateDatabaseTypes, OUTPUT_FILE } from './gen-db-types';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('generated database types', () => {
  let generated: string;
  beforeAll(async () => {
    generated = await generateDatabaseTypes(root);
  });

  it('app/types/database.ts matches the migrations (run `npm run db:types` after changing one)', async () => {
    const committed = readFileSync(path.join(root, OUTPUT_FILE), 'utf8');
    expect(committed).toBe(generated);
  });

  it('describes the schema the migrations create: columns, nullability, defaults, keys and RPCs', async () => {
    // A NOT NULL column with a default: required in Row, optional in Insert.
    expect(generated).toMatch(
      /agents: \{\s+Row: \{[^}]*\bstatus: string;[^}]*\};\s+Insert: \{[^}]*\bstatus\?: string;/,
    );
    // A nullable column.
    expect(generated).toMatch(/thumbnail_url: string \| null;/);
    // A one-to-one foreign key (the primary key of user_settings references users).
    expect(generated).toMatch(
      /foreignKeyName: 'user_settings_user_id_fkey';\s+columns: \['user_id'\];\s+isOneToOne: true;\s+referencedRelation: 'users';/,
    );
    // An RPC with defaulted arguments returning a table.
    expect(generated).toMatch(
      /category_counts: \{\s+Args: \{ max_price\?: number; min_rating\?: number; search\?: string \};\s+Returns: \{\s+agent_count: number;\s+category: string;\s+\}\[\];/,
    );
  });
});
