/**
 * The categories table and the one definition of the marketplace filters (ADR 011):
 * `public.categories` is the list the agents' key, `category_counts` and the app read, and
 * `public.catalogue_agents` is the filter that both the page query and `category_counts` apply.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, type Database } from '../../../packages/supabase-embedded/src/database';
import {
  DEMO,
  anon,
  errorCodeAs,
  openSeededDatabase,
  openTestDatabase,
  rolledBack,
  rowsAs,
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

type Count = { category: string; agent_count: number };

describe('categories table', () => {
  it('lists the six categories in display order, each with its URL slug and looks, for anyone', async () => {
    const rows = await rowsAs<{ name: string; slug: string; icon: string; colour: string }>(
      db,
      anon,
      'select name, slug, icon, colour from public.categories order by position',
    );
    expect(rows.map((row) => [row.name, row.slug])).toEqual([
      ['Marketing', 'marketing'],
      ['Data Analysis', 'data analysis'],
      ['Content Creation', 'content creation'],
      ['Sales', 'sales'],
      ['Customer Support', 'customer support'],
      ['Finance', 'finance'],
    ]);
    expect(rows.every((row) => row.icon !== '' && row.colour !== '')).toBe(true);
  });

  it('is written by the service role only', async () => {
    const insert = "insert into public.categories (name, slug, position) values ('Robots', 'robots', 7)";
    for (const claims of [anon, user(DEMO.buyer), user(DEMO.seller), user(DEMO.admin)]) {
      expect(await errorCodeAs(db, claims, insert)).toBe('42501');
      expect(await errorCodeAs(db, claims, "update public.categories set slug = 'x' where name = 'Sales'")).toBe(
        '42501',
      );
      expect(await errorCodeAs(db, claims, "delete from public.categories where name = 'Sales'")).toBe('42501');
    }
    expect(await errorCodeAs(db, serviceRole, insert)).toBeUndefined();
  });

  it('keeps slugs lowercase, so that the URL can be compared case-insensitively', async () => {
    expect(
      await errorCodeAs(
        db,
        serviceRole,
        "insert into public.categories (name, slug, position) values ('R', 'Robots', 7)",
      ),
    ).toBe('23514');
  });

  it('is what agents.category must name (a foreign key instead of the old CHECK)', async () => {
    const insert = `insert into public.agents (name, price, category, seller_id) values ('X', 1, $1, '${DEMO.seller}')`;
    expect(await errorCodeAs(db, user(DEMO.seller), insert, ['Robots'])).toBe('23503');
    expect(await errorCodeAs(db, user(DEMO.seller), insert, ['sales'])).toBe('23503');
    expect(await errorCodeAs(db, user(DEMO.seller), insert, ['Sales'])).toBeUndefined();
    // A category with agents cannot be deleted; a renamed one takes its agents along.
    expect(await errorCodeAs(db, serviceRole, "delete from public.categories where name = 'Sales'")).toBe('23503');
    const renamed = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query(
        "update public.categories set name = 'Sales & Outreach', slug = 'sales & outreach' where name = 'Sales'",
      );
      return (await tx.query<Count>(`select category, agent_count::int from public.category_counts()`)).rows;
    });
    expect(renamed.find((row) => row.category === 'Sales & Outreach')?.agent_count).toBe(12);
    expect(renamed.some((row) => row.category === 'Sales')).toBe(false);
  });

  it('a new category appears in category_counts in its position, with 0 and then its agents', async () => {
    const counts = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query("insert into public.categories (name, slug, position) values ('Robots', 'robots', 0)");
      const empty = (await tx.query<Count>('select category, agent_count::int from public.category_counts()')).rows;
      await tx.query(
        `insert into public.agents (name, price, category, seller_id, status) values ('Robo', 5, 'Robots', '${DEMO.seller}', 'published')`,
      );
      const filled = (await tx.query<Count>('select category, agent_count::int from public.category_counts()')).rows;
      const page = (await tx.query<{ name: string }>("select name from public.catalogue_agents(category => 'Robots')"))
        .rows;
      return { empty, filled, page };
    });
    expect(counts.empty.map((row) => row.category)).toEqual([
      'Robots',
      'Marketing',
      'Data Analysis',
      'Content Creation',
      'Sales',
      'Customer Support',
      'Finance',
    ]);
    expect(counts.empty[0]).toEqual({ category: 'Robots', agent_count: 0 });
    expect(counts.filled[0]).toEqual({ category: 'Robots', agent_count: 1 });
    expect(counts.page).toEqual([{ name: 'Robo' }]);
  });
});

describe('catalogue_agents: the one definition of the marketplace filters', () => {
  const FILTERS: Record<string, unknown>[] = [
    {},
    { search: 'forecast' },
    { search: 'EMAIL', max_price: 150 },
    { max_price: 100, min_rating: 4 },
    { min_rating: 4.5 },
    { search: 'a', max_price: 200, min_rating: 3 },
    { max_price: 0 },
  ];
  const call = (fn: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const all = { ...args, ...extra };
    const names = Object.keys(all);
    const types: Record<string, string> = {
      search: 'text',
      category: 'text',
      max_price: 'numeric',
      min_rating: 'numeric',
    };
    const list = names.map((name, i) => `${name} => $${i + 1}::${types[name]}`).join(', ');
    return { sql: `public.${fn}(${list})`, params: names.map((name) => all[name]) };
  };

  it('category_counts counts exactly the rows catalogue_agents returns, per category and in all', async () => {
    const categories = await rowsAs<{ name: string }>(db, anon, 'select name from public.categories');
    for (const filters of FILTERS) {
      const counts = call('category_counts', filters);
      const byCategory = await rowsAs<Count>(
        db,
        anon,
        `select category, agent_count::int from ${counts.sql}`,
        counts.params,
      );
      const rows = call('catalogue_agents', filters);
      const [all] = await rowsAs<{ n: number }>(db, anon, `select count(*)::int as n from ${rows.sql}`, rows.params);
      expect(byCategory.reduce((sum, row) => sum + row.agent_count, 0)).toBe(all?.n);
      for (const { name } of categories) {
        const one = call('catalogue_agents', filters, { category: name });
        const [inCategory] = await rowsAs<{ n: number }>(
          db,
          anon,
          `select count(*)::int as n from ${one.sql}`,
          one.params,
        );
        expect(byCategory.find((row) => row.category === name)?.agent_count, JSON.stringify([filters, name])).toBe(
          inCategory?.n,
        );
      }
    }
  });

  it('applies each filter as the marketplace states it, NULL meaning no filter', async () => {
    const [truth] = await rowsAs<{ all: number; cheap: number; rated: number; sales: number; email: number }>(
      db,
      serviceRole,
      `select count(*)::int as all,
         count(*) filter (where a.price <= 100)::int as cheap,
         count(*) filter (where s.avg_rating >= 4)::int as rated,
         count(*) filter (where a.category = 'Sales')::int as sales,
         count(*) filter (where concat_ws(' ', a.name, a.description, a.category, array_to_string(a.features, ' ')) ~* '\\memails?\\M')::int as email
       from public.agents a join public.agent_stats s on s.agent_id = a.id where a.status = 'published'`,
    );
    const count = async (args: string) =>
      (await rowsAs<{ n: number }>(db, anon, `select count(*)::int as n from public.catalogue_agents(${args})`))[0]?.n;
    expect(await count('')).toBe(truth?.all);
    expect(await count('null, null, null, null')).toBe(truth?.all);
    expect(await count("search => '   '")).toBe(truth?.all);
    expect(await count('max_price => 100')).toBe(truth?.cheap);
    expect(await count('min_rating => 4')).toBe(truth?.rated);
    expect(await count("category => 'Sales'")).toBe(truth?.sales);
    expect(await count("category => 'sales'")).toBe(0);
    expect(await count("category => 'no such category'")).toBe(0);
    expect(await count("search => '  eMaIl '")).toBe(truth?.email);
  });

  it('reads %, _ and \\ in the search as separators between words, never as wildcards', async () => {
    const names = async (search: string) =>
      (
        await rolledBack(db, serviceRole, async (tx) => {
          await tx.query(
            `insert into public.agents (name, price, category, seller_id, status) values
               ('100% Uptime Bot', 5, 'Sales', $1, 'published'), ('snake_case Helper', 5, 'Sales', $1, 'published'),
               ('Back\\slash Bot', 5, 'Sales', $1, 'published')`,
            [DEMO.seller],
          );
          // Among the three agents above (the seed may hold other % signs), order by name.
          return (
            await tx.query<{ name: string }>(
              `select name from public.catalogue_agents(search => $1)
               where name in ('100% Uptime Bot', 'snake_case Helper', 'Back\\slash Bot') order by name`,
              [search],
            )
          ).rows;
        })
      ).map((row) => row.name);
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
    expect(await names('100%')).toEqual(['100% Uptime Bot']);
    expect(await names('100% u')).toEqual(['100% Uptime Bot']);
    expect(await names('snake_case')).toEqual(['snake_case Helper']);
    expect(await names('e_c')).toEqual([]);
    expect(await names('back\\slash')).toEqual(['Back\\slash Bot']);
  });

  it('stays inlinable: plain SQL functions, neither SECURITY DEFINER nor with a SET clause', async () => {
    // Otherwise Postgres cannot inline them, and a page reads and sorts every published agent.
    const { rows } = await db.query<{ proname: string; prolang: string; prosecdef: boolean; proconfig: null }>(
      `select p.proname, l.lanname as prolang, p.prosecdef, p.proconfig from pg_proc p join pg_language l on l.oid = p.prolang
       where p.pronamespace = 'public'::regnamespace
         and p.proname in ('like_substring', 'matches_catalogue_filters', 'catalogue_agents', 'category_counts')
       order by p.proname`,
    );
    expect(rows).toEqual(
      ['catalogue_agents', 'category_counts', 'like_substring', 'matches_catalogue_filters'].map((proname) => ({
        proname,
        prolang: 'sql',
        prosecdef: false,
        proconfig: null,
      })),
    );
  });

  it('returns published agents only, whoever asks (drafts and archived agents stay out)', async () => {
    for (const claims of [anon, user(DEMO.seller), user(DEMO.buyer), user(DEMO.admin)]) {
      const statuses = await rowsAs<{ status: string }>(
        db,
        claims,
        'select distinct status from public.catalogue_agents()',
      );
      expect(statuses).toEqual([{ status: 'published' }]);
    }
  });
});

describe('upgrading a data directory created before the categories table', () => {
  let dir = '';
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('turns the CHECK into the foreign key and keeps every agent and count', async () => {
    const migration = '20261124000300_catalogue_filters_and_categories.sql';
    dir = mkdtempSync(path.join(os.tmpdir(), 'catalogue-upgrade-'));
    const real = path.resolve('supabase');
    // The seed's accounts and agents (what the counts read); what follows needs later migrations.
    const seed = readFileSync(path.join(real, 'seed.sql'), 'utf8');
    writeFileSync(path.join(dir, 'seed.sql'), seed.slice(0, seed.indexOf('\n-- Packages:')));
    cpSync(path.join(real, 'migrations'), path.join(dir, 'migrations'), {
      recursive: true,
      // The migration and every later one (they may build on it).
      filter: (source) => !source.endsWith('.sql') || path.basename(source) < migration,
    });
    const old = await openTestDatabase(dir);
    try {
      const countsSql = 'select category, agent_count::int from public.category_counts(max_price => 150)';
      const before = (await old.query<Count>(countsSql)).rows;
      const applied = await applyMigrations(old, path.join(real, 'migrations'));
      expect(applied).toContain(migration);
      expect((await old.query<Count>(countsSql)).rows).toEqual(before);
      const constraints = await old.query<{ conname: string }>(
        "select conname from pg_constraint where conrelid = 'public.agents'::regclass and contype in ('c', 'f') and conname like 'agents_category%' order by 1",
      );
      expect(constraints.rows).toEqual([{ conname: 'agents_category_fkey' }]);
    } finally {
      await old.close();
    }
  });
});

describe('the rating of an agent nobody has rated', () => {
  it('is no rating (NULL, not 0 or five stars) in agents_with_stats and catalogue_agents; rated agents keep theirs', async () => {
    const read = (from: string) =>
      rowsAs<{ review_count: number; avg_rating: string | null }>(
        db,
        anon,
        `select review_count, avg_rating::text from ${from} where status = 'published'`,
      );
    for (const rows of [await read('public.agents_with_stats'), await read('public.catalogue_agents()')]) {
      const unrated = rows.filter((row) => Number(row.review_count) === 0);
      const rated = rows.filter((row) => Number(row.review_count) > 0);
      expect(unrated.length).toBeGreaterThan(0);
      expect(rated.length).toBeGreaterThan(0);
      expect(unrated.every((row) => row.avg_rating === null)).toBe(true);
      expect(rated.every((row) => Number(row.avg_rating) >= 1 && Number(row.avg_rating) <= 5)).toBe(true);
    }
  });

  it('is left out by any minimum rating', async () => {
    const rows = await rowsAs<{ review_count: number }>(
      db,
      anon,
      `select review_count from public.catalogue_agents(min_rating => 1)`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => Number(row.review_count) > 0)).toBe(true);
  });
});

describe('platform_figures: the home page figures', () => {
  type Figures = { agents: number; sellers: number; purchases: number; reviews: number; rating: number | null };
  const FIGURES = `select agent_count::int as agents, seller_count::int as sellers, purchase_count::int as purchases,
      review_count::int as reviews, avg_rating::float8 as rating from public.platform_figures()`;
  /** The same figures counted from the tables, with the catalogue's rule written out. */
  const FROM_THE_ROWS = `
    with listed as (select id, seller_id from public.agents where status = 'published' and not seller_banned)
    select (select count(*)::int from listed) as agents,
      (select count(distinct seller_id)::int from listed) as sellers,
      (select count(*)::int from public.purchases p where p.status = 'completed' and p.agent_id in (select id from listed)) as purchases,
      (select count(*)::int from public.reviews r where r.agent_id in (select id from listed)) as reviews,
      (select round(avg(r.rating), 1)::float8 from public.reviews r where r.agent_id in (select id from listed)) as rating`;

  it('counts what the marketplace lists, the same for anyone, as the rows themselves do', async () => {
    const [expected] = await rowsAs<Figures>(db, serviceRole, FROM_THE_ROWS);
    expect(expected!.agents).toBeGreaterThan(0);
    expect(expected!.purchases).toBeGreaterThan(0);
    expect(expected!.reviews).toBeGreaterThan(0);
    for (const claims of [anon, user(DEMO.buyer), user(DEMO.seller), user(DEMO.admin), serviceRole]) {
      expect(await rowsAs<Figures>(db, claims, FIGURES)).toEqual([expected]);
    }
  });

  it("leaves out a banned seller's agents, their purchases and reviews at once", async () => {
    const [before] = await rowsAs<Figures>(db, serviceRole, FIGURES);
    const after = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query('update public.users set banned_at = now() where id = $1', [DEMO.seller]);
      return {
        figures: (await tx.query<Figures>(FIGURES)).rows[0],
        expected: (await tx.query<Figures>(FROM_THE_ROWS)).rows[0],
      };
    });
    expect(after.figures).toEqual(after.expected);
    expect(after.figures!.agents).toBeLessThan(before!.agents);
    expect(after.figures!.sellers).toBe(before!.sellers - 1);
  });

  it('gives no rating while no listed agent is reviewed', async () => {
    const figures = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query('delete from public.reviews');
      return (await tx.query<Figures>(FIGURES)).rows[0];
    });
    expect(figures).toMatchObject({ reviews: 0, rating: null });
  });
});
