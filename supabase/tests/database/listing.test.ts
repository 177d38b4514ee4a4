/**
 * Listing agents (migration 20261126000200): the public image bucket, the changelog function,
 * agent_stats.last_version_at in agents_with_stats and the catalogue, and ownership of versions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../packages/supabase-embedded/src/database';
import {
  DEMO,
  anon,
  errorCodeAs,
  openSeededDatabase,
  rolledBack,
  rowsAs,
  seedAgentId,
  serviceRole,
  user,
} from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

const SELLER_AGENT = seedAgentId(1);

async function sellerOf(agentId: string): Promise<string> {
  const rows = await rowsAs<{ seller_id: string }>(
    db,
    serviceRole,
    'select seller_id from public.agents where id = $1',
    [agentId],
  );
  return rows[0]!.seller_id;
}

describe('agent-images bucket', () => {
  it('is public, 2 MB, four image types', async () => {
    const rows = await rowsAs(
      db,
      serviceRole,
      `select public, file_size_limit::float8 as limit, allowed_mime_types from storage.buckets where id = 'agent-images'`,
    );
    expect(rows).toEqual([
      { public: true, limit: 2097152, allowed_mime_types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] },
    ]);
  });

  it('accepts its public URL path as an image source', async () => {
    const rows = await rowsAs<{ ok: boolean }>(db, anon, 'select public.is_image_source($1) as ok', [
      `/storage/v1/object/public/agent-images/${DEMO.seller}/${SELLER_AGENT}/0b7c2a9e-1111-4222-8333-944455556666.png`,
    ]);
    expect(rows[0]?.ok).toBe(true);
  });
});

describe('agent_changelog', () => {
  it('lists the versions of a published agent newest first, to anyone', async () => {
    const rows = await rowsAs<{ version: string; release_notes: string }>(
      db,
      anon,
      'select version, release_notes from public.agent_changelog($1)',
      [SELLER_AGENT],
    );
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.at(-1)).toMatchObject({ version: '1.0.0', release_notes: 'Initial release.' });
    expect(Object.keys(rows[0]!)).toEqual(['version', 'release_notes']);
  });

  it("hides a draft's versions from everyone but its seller and admins", async () => {
    await rolledBack(db, serviceRole, async (tx) => {
      const agent = await tx.query<{ id: string }>(
        `insert into public.agents (name, price, category, seller_id, status) values ('Draft Probe', 1, 'Sales', $1, 'draft') returning id`,
        [DEMO.seller],
      );
      const id = agent.rows[0]!.id;
      await tx.query(
        `insert into public.agent_versions (agent_id, version, release_notes, file_path, file_name, content_type, file_size)
         values ($1::uuid, '1.0.0', 'first', $2::text || '/' || $1::text || '/1.0.0/1.json', '1.json', 'application/json', 2)`,
        [id, DEMO.seller],
      );
      const countAs = async (claims: object) => {
        await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
          (claims as { role: string }).role,
          JSON.stringify(claims),
        ]);
        const rows = await tx.query('select * from public.agent_changelog($1)', [id]);
        await tx.query(`select set_config('role', 'postgres', true)`);
        return rows.rows.length;
      };
      expect(await countAs(anon)).toBe(0);
      expect(await countAs(user(DEMO.buyer))).toBe(0);
      expect(await countAs(user(DEMO.seller))).toBe(1);
      expect(await countAs(user(DEMO.admin))).toBe(1);
    });
  });
});

describe('last_version_at', () => {
  it('is the date of the latest version, in agents_with_stats and the catalogue', async () => {
    const [row] = await rowsAs<{ last: string; expected: string }>(
      db,
      anon,
      `select s.last_version_at as last,
              (select max(created_at) from public.agent_versions v where v.agent_id = s.id) as expected
       from public.agents_with_stats s where s.id = $1`,
      [SELLER_AGENT],
    );
    // anon cannot read agent_versions: only the column tells it.
    expect(row?.last).not.toBeNull();
    expect(row?.expected).toBeNull();
    const catalogue = await rowsAs<{ last_version_at: string | null }>(
      db,
      anon,
      'select last_version_at from public.catalogue_agents() where id = $1',
      [SELLER_AGENT],
    );
    expect(catalogue[0]?.last_version_at).toEqual(row?.last);
  });

  it('moves when the seller adds a version (the app writes it with the service role)', async () => {
    const seller = await sellerOf(SELLER_AGENT);
    const last = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query(
        `insert into public.agent_versions (agent_id, version, release_notes, file_path, file_name, content_type, file_size, created_at)
         values ($1::uuid, '9.0.0', 'big', $2::text || '/' || $1::text || '/9.0.0/9.json', '9.json', 'application/json', 2, now() + interval '1 day')`,
        [SELLER_AGENT, seller],
      );
      return (
        await tx.query<{ last: Date }>('select last_version_at as last from public.agents_with_stats where id = $1', [
          SELLER_AGENT,
        ])
      ).rows[0]!.last;
    });
    expect(new Date(last).getTime()).toBeGreaterThan(Date.now());
  });
});

describe('ownership', () => {
  it("refuses a version, an update and a stats write on another seller's agent", async () => {
    const owner = await sellerOf(SELLER_AGENT);
    const other = owner === DEMO.seller ? DEMO.otherSeller : DEMO.seller;
    expect(
      await errorCodeAs(
        db,
        user(other),
        `insert into public.agent_versions (agent_id, version, file_path, file_name, content_type, file_size)
         values ($1, '9.0.0', 'x', 'x.json', 'application/json', 1)`,
        [SELLER_AGENT],
      ),
    ).toBe('42501');
    const updated = await rowsAs(
      db,
      user(other),
      `update public.agents set name = 'Stolen' where id = $1 returning id`,
      [SELLER_AGENT],
    );
    expect(updated).toEqual([]);
    expect(
      await errorCodeAs(db, user(owner), 'update public.agent_stats set last_version_at = now() where agent_id = $1', [
        SELLER_AGENT,
      ]),
    ).toBe('42501');
  });
});
