/**
 * Search as the marketplace reads it (migration 20261208000100, ADR 062): words in any order and
 * in any field, phrases, accents, typos, the last word as a prefix, creators as their privacy
 * allows, "Did you mean", any text without an error, and the documents and vocabulary kept in
 * step with the agents. The relevance of the order is search-relevance.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../packages/supabase-embedded/src/database';
import { DEMO, anon, openSeededDatabase, rolledBack, rowsAs, serviceRole, user } from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

const NOVA = DEMO.otherSeller; // nova_labs: public profile, display name "Nova Labs"

/**
 * The names the marketplace lists for `search`, best match first. As the service role: the
 * catalogue functions filter what is listed themselves, and the anonymous role's 3 s statement
 * deadline is for the Data API, not for a test runner sharing two cores with others; what the
 * anonymous role may read is checked below.
 */
async function found(search: string): Promise<string[]> {
  const rows = await rowsAs<{ name: string }>(
    db,
    serviceRole,
    `select name from public.catalogue_agents(search => $1)
     order by search_rank desc nulls last, purchase_count desc, id`,
    [search],
  );
  return rows.map((row) => row.name);
}

/** Published agents whose text (any searched field) has a word matching `pattern` (a regex). */
async function agentsWithWord(pattern: string): Promise<string[]> {
  const rows = await rowsAs<{ name: string }>(
    db,
    serviceRole,
    `select a.name from public.agents a
     where a.status = 'published'
       and concat_ws(' ', a.name, a.description, a.category, array_to_string(a.features, ' ')) ~* $1
     order by a.name`,
    [pattern],
  );
  return rows.map((row) => row.name);
}

const sorted = (names: string[]) => [...names].sort();

describe('words, not a substring', () => {
  it('matches every word in any order, in any field', async () => {
    const both = await found('customer support');
    expect(both.length).toBeGreaterThan(5);
    expect(sorted(await found('support customer'))).toEqual(sorted(both));
    // Every agent found has both words (a stem of each) somewhere in its text.
    const customers = await agentsWithWord('\\mcustomers?\\M');
    const support = await agentsWithWord('\\msupport');
    for (const name of both) expect(customers.includes(name) && support.includes(name), name).toBe(true);
  });

  it('finds a word that only a feature has, and stems ("writers" finds "writer")', async () => {
    expect(await found('shopify')).toEqual(expect.arrayContaining(await agentsWithWord('\\mshopify\\M')));
    expect(await found('woocommerce')).toContain('Product Description Pro');
    expect(sorted(await found('writers'))).toEqual(sorted(await found('writer')));
  });

  it('an agent noun finds its verb: "seo writer" finds the agent that writes SEO-friendly copy', async () => {
    expect(await found('seo writer')).toContain('Product Description Pro');
  });

  it('reads a quoted phrase as a phrase, and an unbalanced quote as words', async () => {
    const phrase = await found('"customer support"');
    expect(phrase.length).toBeGreaterThan(0);
    const words = await found('customer support');
    for (const name of phrase) expect(words).toContain(name);
    expect(sorted(await found('"customer support'))).toEqual(sorted(words));
    expect(await found('"support customer"')).not.toEqual(phrase);
  });

  it('excludes a word after a minus sign', async () => {
    const all = await found('email');
    const withoutSlack = await found('email -slack');
    const slack = await agentsWithWord('\\mslack\\M');
    expect(withoutSlack.length).toBeLessThan(all.length);
    for (const name of withoutSlack) expect(slack).not.toContain(name);
  });

  it('ignores case and accents both ways ("resume" finds "Résumé", "RÉSUMÉ" finds "resume")', async () => {
    const names = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query(
        `insert into public.agents (name, description, price, category, seller_id, status) values
           ('Résumé Polisher', 'Rewrites a CV for each job.', 9, 'Content Creation', $1, 'published'),
           ('Cover Letter Coach', 'Matches your resume to the posting.', 9, 'Content Creation', $1, 'published')`,
        [DEMO.seller],
      );
      const search = async (text: string) =>
        (
          await tx.query<{ name: string }>('select name from public.catalogue_agents(search => $1) order by name', [
            text,
          ])
        ).rows.map((row) => row.name);
      return {
        plain: await search('resume'),
        accented: await search('RÉSUMÉ'),
        mixed: await search('RESUMÉ polisher'),
      };
    });
    expect(names.plain).toEqual(['Cover Letter Coach', 'Résumé Polisher']);
    expect(names.accented).toEqual(['Cover Letter Coach', 'Résumé Polisher']);
    expect(names.mixed).toEqual(['Résumé Polisher']);
  });
});

describe('creators', () => {
  it('finds a creator’s agents by username and by display name', async () => {
    const [{ count }] = (await rowsAs<{ count: number }>(
      db,
      serviceRole,
      `select count(*)::int as count from public.agents a join public.users u on u.id = a.seller_id
       where u.username = 'quillworks' and a.status = 'published'`,
    )) as [{ count: number }];
    expect(count).toBeGreaterThan(0);
    expect(await found('quillworks')).toHaveLength(count);
    expect(sorted(await found('Quillworks Studio'))).toEqual(sorted(await found('quillworks')));
    expect((await found('nova labs')).length).toBeGreaterThan(0);
  });

  it('matches a display name only while the seller’s profile is public', async () => {
    const result = await rolledBack(db, serviceRole, async (tx) => {
      await tx.query(`update public.users set display_name = 'Zephyr Forge' where id = $1`, [NOVA]);
      const search = async (text: string) =>
        (await tx.query<{ n: number }>('select count(*)::int as n from public.catalogue_agents(search => $1)', [text]))
          .rows[0]!.n;
      const shown = await search('zephyr');
      await tx.query(`update public.user_settings set profile_visibility = 'members' where user_id = $1`, [NOVA]);
      return { shown, hidden: await search('zephyr'), byUsername: await search('nova_labs') };
    });
    expect(result.shown).toBeGreaterThan(0);
    expect(result.hidden).toBe(0);
    expect(result.byUsername).toBe(result.shown);
  });
});

describe('typos and prefixes', () => {
  it('finds a word of five letters or more with one typo, nine or more with two', async () => {
    const email = await found('email');
    expect(email.length).toBeGreaterThan(0);
    expect(sorted(await found('emial'))).toEqual(sorted(email));
    expect(sorted(await found('analitycs'))).toEqual(sorted(await found('analytics')));
    expect(await found('forcast')).toEqual(expect.arrayContaining(['Cash Flow Forecaster']));
  });

  it('tries no typo in a short word, and none for a word the catalogue uses', async () => {
    expect(await found('emal')).toEqual([]);
    // "sales" is a catalogue word: "scales" or "tales" are not read into it.
    const sales = await found('sales');
    expect(sales.length).toBeGreaterThan(0);
    for (const name of sales) expect(await agentsWithWord('\\msales?\\M'), name).toContain(name);
  });

  it('matches the last word typed as a prefix, and only the last', async () => {
    expect(await found('podc')).toEqual(['Podcast Producer']);
    expect(await found('knowled')).toContain('Knowledge Base Builder');
    expect(await found('podc producer')).toEqual([]);
  });

  it('offers "Did you mean" from the catalogue’s words, only when that finds something', async () => {
    const suggest = async (search: string) =>
      (await rowsAs<{ s: string | null }>(db, anon, 'select public.search_did_you_mean($1) as s', [search]))[0]!.s;
    expect(await suggest('emal')).toBe('email');
    expect(await suggest('podcst prodcer')).toBe('podcast producer');
    expect(await suggest('email')).toBeNull();
    expect(await suggest('qwzx vbnmk')).toBeNull();
  });
});

describe('any text', () => {
  const ODD = [
    `&|!():*<>'"\\%_`,
    '"unbalanced',
    'a"b"c"',
    '-',
    '--email',
    'x'.repeat(5000),
    'word '.repeat(1000),
    '🤖 agents 🚀',
    'שלום עולם',
    'مرحبا',
    "'; drop table public.agents; --",
    'email:* & !support',
    '\\',
    '   ',
  ];

  it.each(ODD.map((text) => [text.slice(0, 40), text]))('%s: results or none, never an error', async (_, text) => {
    const rows = await rowsAs<{ n: number }>(
      db,
      anon,
      `select (select count(*)::int from public.catalogue_agents(search => $1)) as n,
              (select count(*)::int from public.category_counts(search => $1)) as categories,
              (select count(*)::int from public.search_suggestions($1)) as suggestions,
              public.search_did_you_mean($1) is null as no_suggestion`,
      [text],
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(0);
  });

  it('bounds the work of the helpers the Data API exposes, whatever their arguments', async () => {
    const [row] = await rowsAs<{ far: number; near: number; swapped: number }>(
      db,
      anon,
      `select public.typo_distance(repeat('a', 100000), repeat('b', 100000), 100000) as far,
              public.typo_distance('emial', 'email', 1) as near,
              public.typo_distance('analitycs', 'analytics', 5) as swapped`,
    );
    expect(row).toEqual({ far: 3, near: 1, swapped: 2 });
    // A word over 40 characters is cut to 40 (as search_query never gives more).
    const [long] = await rowsAs<{ prefix: string; word: string; candidates: number }>(
      db,
      anon,
      `select public.search_prefix(repeat('a', 500000))::text as prefix,
              numnode(public.search_word_query(repeat('abcdefgh ', 100000), true)) > 0 as word,
              (select count(*)::int from public.search_word_candidates(repeat('b', 500000), 2, 1000)) as candidates`,
    );
    expect(long).toEqual({ prefix: `'${'a'.repeat(40)}':*`, word: true, candidates: 0 });
  });

  it('reads symbols as spaces: "email:* & !support" is the words email and support', async () => {
    expect(sorted(await found('email:* & !support'))).toEqual(sorted(await found('email support')));
  });

  it('a blank search is no search', async () => {
    const [{ all }] = (await rowsAs<{ all: number }>(
      db,
      anon,
      `select count(*)::int as all from public.agents where status = 'published'`,
    )) as [{ all: number }];
    expect(await found('   ')).toHaveLength(all);
  });
});

describe('one definition', () => {
  it('the category counts follow the same matching as the page', async () => {
    for (const search of ['customer support', 'emial', 'podc', 'quillworks', '"customer support"', 'qwzx']) {
      const counts = await rowsAs<{ n: number }>(
        db,
        anon,
        'select coalesce(sum(agent_count), 0)::int as n from public.category_counts(search => $1)',
        [search],
      );
      expect(counts[0]!.n, search).toBe((await found(search)).length);
    }
  });

  it('catalogue_search (the page and the counts in one call) gives catalogue_agents’ rows in each order and category_counts’ counts', async () => {
    // Each sort as the marketplace orders catalogue_agents, ending with the id.
    const ORDERS: Record<string, string> = {
      relevance: 'search_rank desc nulls last, purchase_count desc',
      newest: 'created_at desc',
      popular: 'purchase_count desc',
      'price-low': 'price asc',
      'price-high': 'price desc',
      rating: 'avg_rating desc nulls last',
    };
    const cases: [string, string | null, number | null, number | null][] = [
      ['agent', null, null, null],
      ['agent', 'Sales', null, null],
      ['emial', null, 100, null],
      ['data', null, null, 4],
      ['qwzx', null, null, null],
    ];
    for (const [search, category, maxPrice, minRating] of cases)
      for (const [sort, order] of Object.entries(ORDERS)) {
        const label = `${search} ${category} ${maxPrice} ${minRating} ${sort}`;
        const expected = await rowsAs<{ id: string }>(
          db,
          anon,
          `select id from public.catalogue_agents($1, $2, $3, $4) order by ${order}, id`,
          [search, category, maxPrice, minRating],
        );
        const counts = await rowsAs<{ category: string; agent_count: number }>(
          db,
          anon,
          'select category, agent_count::int from public.category_counts($1, $2, $3) where agent_count > 0',
          [search, maxPrice, minRating],
        );
        for (const [from, size] of [
          [0, 5],
          [5, 5],
        ] as const) {
          const [row] = await rowsAs<{ result: { agents: { id: string; name: string }[]; counts: object } }>(
            db,
            anon,
            'select public.catalogue_search($1, $2, $3, $4, $5, $6, $7) as result',
            [search, category, maxPrice, minRating, sort, from, size],
          );
          expect(
            row!.result.agents.map((agent) => agent.id),
            label,
          ).toEqual(expected.slice(from, from + size).map((agent) => agent.id));
          expect(row!.result.counts, label).toEqual(
            Object.fromEntries(counts.map((count) => [count.category, count.agent_count])),
          );
        }
      }
  });

  it('catalogue_search bounds what the Data API can ask of it: an unknown sort is Best match, at most 100 agents a page', async () => {
    const call = (sort: string, from: number, size: number) =>
      rowsAs<{ result: { agents: { id: string }[] } }>(
        db,
        anon,
        'select public.catalogue_search($1, null, null, null, $2, $3, $4) as result',
        ['agent', sort, from, size],
      ).then(([row]) => row!.result.agents.map((agent) => agent.id));
    expect(await call("x'; drop table public.agents; --", 0, 10)).toEqual(await call('relevance', 0, 10));
    const all = await call('relevance', 0, 2_000_000_000);
    expect(all.length).toBeGreaterThan(0);
    expect(all.length).toBeLessThanOrEqual(100);
    expect(await call('relevance', -5, 3)).toEqual(all.slice(0, 3));
    expect(await call('relevance', 2_000_000_000, 10)).toEqual([]);
  });

  it('without a search, the listing the page reads is the catalogue with no search', async () => {
    for (const args of ['null, null, null', "'Sales', null, null", 'null, 100, 4']) {
      const listing = await rowsAs<{ id: string }>(
        db,
        anon,
        `select id from public.catalogue_listing(${args}) order by id`,
      );
      const catalogue = await rowsAs<{ id: string }>(
        db,
        anon,
        `select id from public.catalogue_agents(null, ${args}) order by id`,
      );
      expect(listing.length, args).toBeGreaterThan(0);
      expect(listing, args).toEqual(catalogue);
    }
  });

  it('keeps documents and the vocabulary in step with the agents, and never shows a draft', async () => {
    const result = await rolledBack(db, serviceRole, async (tx) => {
      const words = async () =>
        (await tx.query<{ word: string }>(`select word from public.search_words where word like 'zorblax%'`)).rows.map(
          (row) => row.word,
        );
      const [{ id }] = (
        await tx.query<{ id: string }>(
          `insert into public.agents (name, description, price, category, seller_id, status)
           values ('Zorblax Planner', 'Plans zorblaxes.', 9, 'Sales', $1, 'draft') returning id`,
          [DEMO.seller],
        )
      ).rows as [{ id: string }];
      const asDraft = await words();
      await tx.query(`update public.agents set status = 'published' where id = $1`, [id]);
      const published = await words();
      await tx.query(`update public.agents set name = 'Quantum Planner' where id = $1`, [id]);
      const renamed = await words();
      await tx.query(`update public.agents set status = 'archived' where id = $1`, [id]);
      return { asDraft, published, renamed, archived: await words() };
    });
    expect(result.asDraft).toEqual([]);
    expect(sorted(result.published)).toEqual(['zorblax', 'zorblaxes']);
    expect(result.renamed).toEqual(['zorblaxes']);
    expect(result.archived).toEqual([]);
  });

  it('documents of agents the marketplace does not list are nobody’s to read', async () => {
    const rows = await rowsAs<{ listed: boolean }>(db, user(DEMO.buyer), 'select listed from public.agent_search');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.listed)).toBe(true);
    const [{ unlisted }] = (await rowsAs<{ unlisted: number }>(
      db,
      serviceRole,
      'select count(*)::int as unlisted from public.agent_search where not listed',
    )) as [{ unlisted: number }];
    expect(unlisted).toBeGreaterThan(0);
  });

  it('gives through the index only what the policy gives: listed documents, for anyone, never through the Data API', async () => {
    // In a schema the Data API does not expose (it serves public and graphql_public only).
    const [{ schema }] = (await rowsAs<{ schema: string }>(
      db,
      serviceRole,
      `select pronamespace::regnamespace::text as schema from pg_proc where proname = 'listed_search_documents'`,
    )) as [{ schema: string }];
    expect(schema).toBe('private');
    // Every agent's own words, the listed and the unlisted: the function must name the listed only.
    const [{ all, listed }] = (await rowsAs<{ all: number; listed: number }>(
      db,
      serviceRole,
      `select count(*)::int as all, count(*) filter (where listed)::int as listed from public.agent_search`,
    )) as [{ all: number; listed: number }];
    expect(all).toBeGreaterThan(listed);
    for (const role of [anon, user(DEMO.buyer)]) {
      const rows = await rowsAs<{ agent_id: string; listed: boolean }>(
        db,
        role,
        `select m.agent_id, d.listed from private.listed_search_documents(
           (select string_agg(quote_literal(l.lexeme) || ':*', ' | ')::tsquery
              from (select distinct left(unnest(tsvector_to_array(document)), 1) as lexeme from public.agent_search) l)
         ) m left join public.agent_search d on d.agent_id = m.agent_id`,
      );
      expect(rows.length).toBe(listed);
      expect(rows.every((row) => row.listed)).toBe(true);
    }
  });
});
