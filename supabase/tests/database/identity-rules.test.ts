/**
 * Identity rules, role by role in PGlite: nobody can take a name that
 * looks like someone else's, URLs that end up in links and images are http(s), the sign-up
 * trigger always finds a valid name, and anon writes nothing. See docs/security/identity-rules.md.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, type Database, type Transaction } from '../../../packages/supabase-embedded/src/database';
import {
  DEMO,
  affectedAs,
  anon,
  errorCodeAs,
  openSeededDatabase,
  openTestDatabase,
  rolledBackTransaction,
  rowsAs,
  seedAgentId,
  serviceRole,
  user,
} from './helpers';

const USERNAME_RULE = /^[A-Za-z0-9_]{3,30}$/;

/** Signs an account up inside `tx` as the Auth service does: a row in auth.users, whose trigger makes public.users. */
async function signUpIn(tx: Transaction, id: string, email: string, metadata: Record<string, unknown>) {
  await tx.query('set local role supabase_auth_admin');
  await tx.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', '', $2, '', '{"provider":"email"}', $3, now(), now())`,
    [id, email, JSON.stringify(metadata)],
  );
  await tx.query('reset role');
}

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

const buyer = user(DEMO.buyer);
const seller = user(DEMO.seller);
const rename = (name: string) =>
  errorCodeAs(db, buyer, 'update public.users set username = $1 where id = $2', [name, DEMO.buyer]);

describe('impersonation by renaming', () => {
  it.each([
    ['a trailing zero-width space', 'demo_seller\u200b', '23514'],
    ['a leading space', ' demo_seller', '23514'],
    ['a trailing space', 'demo_seller ', '23514'],
    ['a Cyrillic e', 'd\u0435mo_seller', '23514'],
    ['a Greek omicron', 'dem\u03bf_seller', '23514'],
    ['a dot', 'demo.seller', '23514'],
    ['two characters', 'ab', '23514'],
    ['31 characters', 'a'.repeat(31), '23514'],
    ['another case', 'Demo_Seller', '23505'],
    ['a capital I for l', 'demo_seIler', '23505'],
    ['the digit 1 for l', 'demo_se1ler', '23505'],
    ['the digit 0 for o', 'dem0_seller', '23505'],
    ['rn for m', 'derno_seller', '23505'],
    ['a doubled underscore', 'demo__seller', '23505'],
  ])('refuses a username with %s', async (_, name, code) => {
    expect(await rename(name)).toBe(code);
  });

  it('accepts a valid username of 3 and of 30 characters, and a new case of its own', async () => {
    expect(await rename('dana_b')).toBeUndefined();
    expect(await rename('abc')).toBeUndefined();
    expect(await rename('a'.repeat(30))).toBeUndefined();
    expect(await rename('Demo_Buyer')).toBeUndefined();
    // Dotted lowercase i is not read as l: "ali" and "all" are different names.
    expect(
      await errorCodeAs(db, seller, 'update public.users set username = $1 where id = $2', [
        'demo_sellii',
        DEMO.seller,
      ]),
    ).toBeUndefined();
  });

  it('is_username_available refuses invalid names and look-alikes', async () => {
    const rows = await rowsAs(
      db,
      anon,
      `select public.is_username_available('demo_seIler') as look_alike,
              public.is_username_available(E'demo_seller\\u200b') as zero_width,
              public.is_username_available('dana.b') as dotted,
              public.is_username_available('dana_b') as free`,
    );
    expect(rows).toEqual([{ look_alike: false, zero_width: false, dotted: false, free: true }]);
  });

  it('every seeded username follows the rule', async () => {
    const rows = await rowsAs<{ username: string }>(db, serviceRole, 'select username from public.users');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.filter((row) => !USERNAME_RULE.test(row.username))).toEqual([]);
  });
});

describe('reserved usernames', () => {
  it.each([
    ['admin', 'admin'],
    ['another case', 'Support'],
    ['a look-alike', 'adrnin'],
    ['digits for letters', 'r00t'],
    ['a digit for a capital I', 'ADM1N'],
    ['underscores around it', '_admin'],
    ['an underscore after it', 'admin_'],
    ['underscores inside it', 'sup_port'],
    ['underscores between every letter', 'a_d_m_i_n'],
    ['doubled underscores', '__support'],
    // Names that speak as the platform, as a display name may not:
    ['the platform name', 'AgentMarket'],
    ['the platform name with an underscore', 'Agent_Market'],
    ['the platform name glued to letters', 'AgentMarketHQ'],
    ['a plural', 'Admins'],
    ['verified', 'Verified'],
    ['moderators', 'Moderators'],
    ['staff before a word', 'Staff_Picks'],
    ['admin before a word', 'admin_fan'],
    ['a numbered admin', 'admin_1'],
    // What an outside attack got past that:
    ['words glued in one case', 'adminteam'],
    ['words glued in capitals', 'STAFFPICKS'],
    ['official and a shop word', 'officialstore'],
    ['verified and seller', 'verifiedseller'],
    ['the and a plural', 'theadmins'],
    ['a plural of official', 'the_officials'],
    ['a plural of staff', 'staffs'],
    ['a z for an s', 'adminz'],
    ['mods', 'mods'],
    ['moderation', 'moderation'],
    ['mod and team', 'Mod_Team'],
    ['a desk', 'Support_Team'],
    ['a desk glued', 'SupportTeam'],
    ['security team', 'security_team'],
    ['billing department', 'billing_dept'],
    ['help center', 'help_center'],
    ['trust and safety', 'trust_safety'],
    ['a system notice', 'SystemNotice'],
  ])('refuses renaming to a reserved name: %s', async (_, name) => {
    expect(await rename(name)).toBe('23514');
  });

  it('is_username_available says no to reserved names and yes to names that only contain one inside a word', async () => {
    const rows = await rowsAs(
      db,
      anon,
      `select public.is_username_available('admin') as admin,
              public.is_username_available('SUPPORT') as support,
              public.is_username_available('sysadmin') as sysadmin,
              public.is_username_available('admin_fan') as admin_fan,
              public.is_username_available('helpful_agents') as helpful,
              public.is_username_available('badminton_club') as badminton,
              public.is_username_available('staffordshire') as staffordshire,
              public.is_username_available('Staffan_Larsson') as staffan,
              public.is_username_available('modern_bots') as modern,
              public.is_username_available('unofficial_fan') as unofficial,
              public.is_username_available('support_1') as numbered`,
    );
    expect(rows).toEqual([
      {
        admin: false,
        support: false,
        sysadmin: false,
        admin_fan: false,
        helpful: true,
        badminton: true,
        staffordshire: true,
        staffan: true,
        modern: true,
        unofficial: true,
        numbered: true,
      },
    ]);
  });

  it('sign-up turns a reserved wanted name into another one', async () => {
    const names = await rolledBackTransaction(db, async (tx) => {
      const made: string[] = [];
      for (const [index, wanted] of ['admin', 'Support', 'root', '_admin', 'Staff_Picks'].entries()) {
        const id = `20000000-0000-4000-8000-${String(900 + index).padStart(12, '0')}`;
        await signUpIn(tx, id, `reserved${index}@example.com`, { username: wanted });
        const row = await tx.query<{ username: string }>('select username from public.users where id = $1', [id]);
        made.push(row.rows[0]!.username);
      }
      return made;
    });
    // A name that speaks as the platform starts again from "user" (a number would not help it).
    expect(names).toEqual(['user', 'Support_1', 'root_1', 'user_1', 'user_2']);
  });

  it('an account that already has a reserved name keeps it and can still edit its profile', async () => {
    const outcome = await rolledBackTransaction(db, async (tx) => {
      await tx.query('alter table public.users disable trigger users_username_reserved');
      await tx.query("update public.users set username = 'staff' where id = $1", [DEMO.buyer]);
      await tx.query('alter table public.users enable trigger users_username_reserved');
      await tx.query("update public.users set bio = 'Still here' where id = $1", [DEMO.buyer]);
      const row = await tx.query<{ username: string; bio: string }>(
        'select username, bio from public.users where id = $1',
        [DEMO.buyer],
      );
      return row.rows[0];
    });
    expect(outcome).toEqual({ username: 'staff', bio: 'Still here' });
  });
});

describe('names that speak as the platform', () => {
  const setNames = (names: { display_name?: string | null; first_name?: string | null; last_name?: string | null }) =>
    errorCodeAs(
      db,
      seller,
      'update public.users set display_name = coalesce($1, display_name), first_name = coalesce($2, first_name), last_name = coalesce($3, last_name) where id = $4',
      [names.display_name ?? null, names.first_name ?? null, names.last_name ?? null, DEMO.seller],
    );

  it.each([
    ['the platform name', 'AgentMarket Official Support'],
    ['the platform name split by a hyphen', 'Agent-Market Help'],
    ['official', 'Official Store'],
    ['a zero-width space inside a word', 'Off\u200bicial Store'],
    ['a Cyrillic o and i', '\u043efficial Store'],
    ['a Cyrillic capital O in capitals', '\u041eFFICIAL STORE'],
    ['full-width letters', '\uff21\uff24\uff2d\uff29\uff2e'],
    ['an accent', 'Ädmin Desk'],
    ['digits for letters', 'Adm1n T3am'],
    ['moderator', 'The Moderators'],
    ['staff', 'Staff Picks'],
    ['verified', 'Verified Seller'],
    // What an outside review got past the first version:
    ['a variation selector inside a word', 'Age\ufe00ntMarket Offi\ufe00cial Support'],
    ['a right-to-left override', '\u202enimdA'],
    ['a combining mark outside the common block', 'Adm\u1ab0in'],
    ['a tag character', 'Off\u{e0020}icial'],
    ['Latin small capitals', '\u1d00\u1d05\u1d0d\u026a\u0274'],
    ['an Armenian O', '\u0555fficial Support'],
    ['Cherokee letters', '\u13aa\u13a0\u13b7\u13c6N'],
    ['a dotless i', 'Adm\u0131n'],
    ['a Latin alpha', '\u0251dmin'],
    ['a script g', 'A\u0261ent Market'],
    ['a Cyrillic palochka', 'Officia\u04c0'],
    ['a capital I for an l', 'OfficiaI Support'],
    ['rn for m', 'Adrnin'],
    ['negative squared letters', '\u{1f170}\u{1f173}\u{1f17c}\u{1f178}\u{1f17d}'],
    ['words glued together', 'AgentMarketOfficial'],
    ['the platform name glued to a word', 'TheAgentMarket'],
    ['the platform name in lower case, glued', 'agentmarkethq'],
    ['a capitalised word glued to another', 'VerifiedSeller'],
    ['a trailing sign', 'Admin!'],
    ['a trailing digit', 'Staff3'],
    ['trailing digits', 'admin123'],
    ['a sign between the platform name and a word', 'AgentMarket|Official'],
    ['letters spaced out', 'S T A F F'],
    ['letters dotted', 'A.D.M.I.N'],
    // What an outside attack got past that:
    ['a tab between words', 'Staff\tPicks'],
    ['a line break between words', 'Official\nSupport'],
    ['a zero-width space between words', 'Verified\u200bSeller'],
    ['two right-to-left runs', '\u202eda\u202c\u202enim\u202c Team'],
    ['a Greek nu for a v', '\u03bderified Seller'],
    ['a Cyrillic izhitsa for a v', '\u0475erified Seller'],
    ['a Cherokee letter for an i', 'Adm\u13a5n Team'],
    ['a Lisu S', '\ua4e2taff Picks'],
    ['an Armenian S', '\u054ftaff Picks'],
    ['an APL alpha', '\u237admin Team'],
    ['dotted letters and a word', 'A.D.M.I.N. Team'],
    ['spaced letters of two words', 'S T A F F  P I C K S'],
    ['a hyphen inside a word', 'Ad-min Support'],
    ['glued capitals', 'OFFICIALSTORE'],
    ['a z for an s', 'The Adminz'],
    ['mod', 'Mod Team'],
    ['a desk', 'Support Team'],
    ['a name too long to read', 'Ad '.repeat(100_000)],
  ])('refuses a display name with %s', async (_, name) => {
    expect(await setNames({ display_name: name })).toBe('23514');
  });

  it('refuses first and last names that name the platform, together or alone', async () => {
    expect(await setNames({ first_name: 'Agent', last_name: 'Market' })).toBe('23514');
    expect(await setNames({ first_name: 'Jo', last_name: 'AgentMarket' })).toBe('23514');
    expect(await setNames({ first_name: 'Ag\u0435nt', last_name: 'Mark\u0435t' })).toBe('23514');
  });

  it("accepts a person's own name that happens to be one of the role words (shown only to them)", async () => {
    for (const [first, last] of [
      ['Joe', 'Staff'],
      ['Marc', 'Official'],
      ['Staff Sergeant', 'Jones'],
      ['Admin', 'Smith'],
    ])
      expect(await setNames({ first_name: first, last_name: last }), `${first} ${last}`).toBeUndefined();
  });

  it('accepts ordinary names, including ones that only contain such a word', async () => {
    for (const name of [
      'Support Bots',
      'Staffing Co',
      'Badminton Bots',
      'José Müller',
      'Modern Agents',
      'Agent Marketing Lab',
      'Acme Support Team',
      'The Staffordshire Bots',
      'Modern Admiral',
    ])
      expect(await setNames({ display_name: name }), name).toBeUndefined();
    expect(await setNames({ first_name: 'Adminah', last_name: 'Staffordshire' })).toBeUndefined();
  });

  it('first and last names are at most 60 characters; sign-up cuts longer ones and a huge wanted name', async () => {
    expect(await setNames({ first_name: 'J'.repeat(61) })).toBe('23514');
    expect(await setNames({ last_name: 'J'.repeat(10_000) })).toBe('23514');
    const row = await rolledBackTransaction(db, async (tx) => {
      await signUpIn(tx, '20000000-0000-4000-8000-000000000097', 'long@example.com', {
        username: 'Ad '.repeat(300_000),
        given_name: 'G'.repeat(100_000),
      });
      const made = await tx.query<{ username: string; first_name: string | null }>(
        "select username, first_name from public.users where id = '20000000-0000-4000-8000-000000000097'",
      );
      return made.rows[0];
    });
    expect(row).toEqual({ username: expect.stringMatching(/^[A-Za-z0-9_]{3,30}$/), first_name: 'G'.repeat(60) });
  });

  it('first and last names reach only their owner, admins and trusted server code through public_profiles', async () => {
    const novaLabs = '00000000-0000-4000-8000-000000000011'; // a seeded seller no other test renames
    const read = `select first_name, last_name from public.public_profiles where id = '${novaLabs}'`;
    const names = { first_name: 'Nora', last_name: 'Vance' };
    const hidden = { first_name: null, last_name: null };
    expect(await rowsAs(db, anon, read)).toEqual([hidden]);
    expect(await rowsAs(db, buyer, read)).toEqual([hidden]);
    expect(await rowsAs(db, seller, read)).toEqual([hidden]);
    expect(await rowsAs(db, user(novaLabs), read)).toEqual([names]);
    expect(await rowsAs(db, user(DEMO.admin), read)).toEqual([names]);
    expect(await rowsAs(db, serviceRole, read)).toEqual([names]);
  });

  it('sign-up drops such names from its metadata instead of failing', async () => {
    const row = await rolledBackTransaction(db, async (tx) => {
      await signUpIn(tx, '20000000-0000-4000-8000-000000000098', 'official@example.com', {
        first_name: 'AgentMarket',
        last_name: 'Staff',
      });
      const made = await tx.query<{ first_name: string | null; last_name: string | null }>(
        "select first_name, last_name from public.users where id = '20000000-0000-4000-8000-000000000098'",
      );
      return made.rows[0];
    });
    expect(row).toEqual({ first_name: null, last_name: null });
  });
});

describe('website and image URLs', () => {
  const setWebsite = (value: string | null) =>
    errorCodeAs(db, buyer, 'update public.users set website = $1 where id = $2', [value, DEMO.buyer]);

  it('refuses a website that is not an http(s) URL', async () => {
    for (const value of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,x',
      '//evil.example',
      'https://',
      'https:// evil',
      'ftp://x.example',
    ]) {
      expect(await setWebsite(value), value).toBe('23514');
    }
  });

  it('accepts an http(s) URL, empty or none', async () => {
    for (const value of ['https://dana.example/about?x=1', 'HTTP://dana.example', '', null]) {
      expect(await setWebsite(value), String(value)).toBeUndefined();
    }
  });

  it('refuses script URLs as avatar, thumbnail or gallery image; accepts the seller’s own upload', async () => {
    expect(
      await errorCodeAs(db, buyer, "update public.users set profile_image_url = 'javascript:alert(1)' where id = $1", [
        DEMO.buyer,
      ]),
    ).toBe('23514');
    expect(
      await errorCodeAs(db, seller, "update public.agents set thumbnail_url = '//evil.example/x.png' where id = $1", [
        seedAgentId(1),
      ]),
    ).toBe('23514');
    expect(
      await errorCodeAs(
        db,
        seller,
        "update public.agents set images = array['/thumbnails/a.svg', '/\\evil.example/x'] where id = $1",
        [seedAgentId(1)],
      ),
    ).toBe('23514');
    // A picture from another site is refused too (ADR 066); the seller's own upload is taken.
    expect(
      await errorCodeAs(
        db,
        seller,
        "update public.agents set thumbnail_url = 'https://cdn.example/a.png' where id = $1",
        [seedAgentId(1)],
      ),
    ).toBe('23514');
    const own = `/storage/v1/object/public/agent-images/${DEMO.seller}/${seedAgentId(1)}/0b7c2a9e-1111-4222-8333-944455556666.png`;
    expect(
      await affectedAs(db, seller, 'update public.agents set thumbnail_url = $2, images = array[$2] where id = $1', [
        seedAgentId(1),
        own,
      ]),
    ).toBe(1);
  });
});

describe('sign-up trigger with awkward emails and metadata', () => {
  /** Signs all of them up in one transaction (so they collide with each other), rolled back. */
  async function signUpAll(accounts: { email: string; metadata?: Record<string, unknown> }[]): Promise<string[]> {
    return rolledBackTransaction(db, async (tx) => {
      const names: string[] = [];
      for (const [index, account] of accounts.entries()) {
        const id = `20000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
        await signUpIn(tx, id, account.email, account.metadata ?? {});
        const row = await tx.query<{ username: string }>('select username from public.users where id = $1', [id]);
        names.push(row.rows[0]!.username);
      }
      return names;
    });
  }

  it('always produces valid usernames, unique by case and by look-alike', async () => {
    const names = await signUpAll([
      { email: 'first.last+news@example.com' },
      { email: 'First.Last-News@example.org' },
      { email: 'a@example.com' },
      { email: `${'x'.repeat(64)}@example.com` },
      { email: 'DEMO.SELLER@example.com' },
      { email: 'jos\u00e9@example.com' },
      { email: '-.-@example.com' },
      { email: '\u6771\u4eac@example.com' },
      { email: 'zw@example.com', metadata: { username: 'demo_seller\u200b' } },
      { email: 'sp@example.com', metadata: { username: ' demo_seller ' } },
      { email: 'cy@example.com', metadata: { username: 'd\u0435mo_seller' } },
      { email: 'ii@example.com', metadata: { username: 'demo_seIler' } },
      { email: 'cs@example.com', metadata: { username: 'Demo_Seller' } },
      { email: 'lg@example.com', metadata: { username: 'y'.repeat(40) } },
      { email: 'lg2@example.com', metadata: { username: 'y'.repeat(40) } },
      { email: 'sh@example.com', metadata: { username: 'q' } },
    ]);
    expect(names.filter((name) => !USERNAME_RULE.test(name))).toEqual([]);
    const skeleton = await rowsAs<{ lowered: string[]; skeletons: string[] }>(
      db,
      serviceRole,
      'select array(select lower(n) from unnest($1::text[]) n) as lowered, array(select public.username_skeleton(n) from unnest($1::text[]) n) as skeletons',
      [names],
    );
    expect(new Set(skeleton[0]!.lowered).size).toBe(names.length);
    expect(new Set(skeleton[0]!.skeletons).size).toBe(names.length);
    expect(names).toEqual([
      'first_last_news',
      'first_last_news_1',
      'a00',
      'x'.repeat(30),
      'demo_seller_1',
      'jos',
      'user',
      'user_1',
      'demo_seller_2',
      'demo_seller_3',
      'd_mo_seller',
      // demo_seIler_1 … _3 look like demo_seller_1 … _3 (a capital I reads as l).
      'demo_seIler_4',
      'Demo_Seller_5',
      'y'.repeat(30),
      `${'y'.repeat(28)}_1`,
      'q00',
    ]);
  });

  it('drops an avatar URL that is not an image source instead of failing', async () => {
    const avatar = await rolledBackTransaction(db, async (tx) => {
      await signUpIn(tx, '20000000-0000-4000-8000-000000000099', 'g@example.com', {
        avatar_url: 'javascript:alert(1)',
      });
      const row = await tx.query<{ profile_image_url: string | null }>(
        "select profile_image_url from public.users where id = '20000000-0000-4000-8000-000000000099'",
      );
      return row.rows[0];
    });
    expect(avatar).toEqual({ profile_image_url: null });
  });
});

describe('anonymous and bulk writes', () => {
  it('nobody but the service role writes newsletter subscribers', async () => {
    const insert = "insert into public.newsletter_subscribers (email) values ('new@demo.test')";
    expect(await errorCodeAs(db, anon, insert)).toBe('42501');
    expect(await errorCodeAs(db, buyer, insert)).toBe('42501');
    expect(await affectedAs(db, serviceRole, insert)).toBe(1);
  });

  it('anon holds no write privilege and no write policy on anything in public', async () => {
    const writable = await rowsAs<{ relation: string; privilege: string }>(
      db,
      serviceRole,
      `select c.relname as relation, p.privilege
         from pg_class c
         join pg_namespace n on n.oid = c.relnamespace
         cross join unnest(array['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) as p(privilege)
        where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f')
          and has_table_privilege('anon', c.oid, p.privilege)
        order by 1, 2`,
    );
    expect(writable).toEqual([]);
    const policies = await rowsAs<{ tablename: string; policyname: string }>(
      db,
      serviceRole,
      `select tablename, policyname from pg_policies
        where schemaname = 'public' and cmd in ('INSERT', 'UPDATE', 'DELETE', 'ALL')
          and roles && array['anon', 'public']::name[]`,
    );
    expect(policies).toEqual([]);
    // Functions anon may call cannot write: STABLE/IMMUTABLE functions refuse INSERT/UPDATE/DELETE.
    const volatile = await rowsAs<{ name: string }>(
      db,
      serviceRole,
      `select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.prokind = 'f' and p.provolatile = 'v'
          and p.prorettype <> 'trigger'::regtype and has_function_privilege('anon', p.oid, 'EXECUTE')`,
    );
    expect(volatile).toEqual([]);
  });

  it('tables created later are not anon-writable by default either', async () => {
    const privilege = await rowsAs<{ can: boolean }>(
      db,
      serviceRole,
      "select has_table_privilege('anon', 'public.users', 'INSERT') as can",
    );
    expect(privilege).toEqual([{ can: false }]);
    const later = await rolledBackTransaction(db, async (tx) => {
      await tx.query('create table public.later_table (id int)');
      const row = await tx.query<{ insert: boolean; select: boolean }>(
        "select has_table_privilege('anon', 'public.later_table', 'INSERT') as insert, has_table_privilege('anon', 'public.later_table', 'SELECT') as select",
      );
      return row.rows[0];
    });
    expect(later).toEqual({ insert: false, select: true });
  });

  it('a seller creates at most 20 agents in one statement', async () => {
    const batch = (n: number) =>
      `insert into public.agents (name, description, price, category, seller_id)
       select 'Bulk ' || i, 'd', 1, 'Sales', '${DEMO.seller}' from generate_series(1, ${n}) i`;
    expect(await affectedAs(db, seller, batch(20))).toBe(20);
    expect(await errorCodeAs(db, seller, batch(21))).toBe('PT413');
    expect(await affectedAs(db, serviceRole, batch(21))).toBe(21);
  });
});

describe('upgrading a data directory to the bounded and glued names rule', () => {
  let dir = '';
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('removes names the new reading refuses and cuts long ones instead of failing', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'names-upgrade-'));
    const real = path.resolve('supabase');
    cpSync(path.join(real, 'seed.sql'), path.join(dir, 'seed.sql'));
    const later = (name: string) => name.endsWith('.sql') && name >= '20261203000200';
    const held = readdirSync(path.join(real, 'migrations')).filter(later).sort();
    cpSync(path.join(real, 'migrations'), path.join(dir, 'migrations'), {
      recursive: true,
      filter: (source) => !later(path.basename(source)),
    });
    const old = await openTestDatabase(dir);
    try {
      await old.exec(`
        update public.users set display_name = 'Support Team', first_name = repeat('G', 1000) where id = '${DEMO.seller}';
        update public.users set display_name = 'OFFICIALSTORE', last_name = 'Staff' where id = '${DEMO.buyer}';
      `);
      expect(await applyMigrations(old, path.join(real, 'migrations'))).toEqual(held);
      const rows = await old.query(
        'select id, display_name, first_name, last_name from public.users where id = any($1) order by id',
        [[DEMO.buyer, DEMO.seller]],
      );
      expect(rows.rows).toEqual([
        { id: DEMO.buyer, display_name: null, first_name: 'Dana', last_name: 'Staff' },
        { id: DEMO.seller, display_name: null, first_name: 'G'.repeat(60), last_name: 'Seller' },
      ]);
    } finally {
      await old.close();
    }
  });
});

describe('upgrading a data directory created before these rules', () => {
  const QUILLWORKS = '00000000-0000-4000-8000-000000000012';
  let dir = '';
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('repairs rows that break the new rules instead of failing', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'identity-upgrade-'));
    const real = path.resolve('supabase');
    cpSync(path.join(real, 'seed.sql'), path.join(dir, 'seed.sql'));
    // Without the later rules that this old data breaks as well or that call the identity rules'
    // functions (profile pictures from 20261130000500 on): they are applied with it, in order.
    const later = (name: string) =>
      name === '20261123000100_identity_rules.sql' || (name.endsWith('.sql') && name >= '20261130000500');
    const held = readdirSync(path.join(real, 'migrations')).filter(later).sort();
    cpSync(path.join(real, 'migrations'), path.join(dir, 'migrations'), {
      recursive: true,
      filter: (source) => !later(path.basename(source)),
    });
    const old = await openTestDatabase(dir);
    try {
      await old.exec(`
        update public.users set username = 'demo seller' where id = '${DEMO.seller}';
        update public.users set username = 'demo_se11er', website = 'javascript:alert(1)' where id = '${DEMO.buyer}';
        update public.users set username = E'al\\u200bex', website = ' https://alex.example ' where id = '${DEMO.otherBuyer}';
        update public.users set username = '  x', profile_image_url = 'javascript:alert(1)' where id = '${DEMO.admin}';
        update public.users set username = 'nova_1abs' where id = '${QUILLWORKS}';
        update public.agents set thumbnail_url = 'javascript:alert(1)',
          images = array['javascript:alert(1)', '/thumbnails/sales-1.svg'] where id = '${seedAgentId(1)}';
      `);
      const applied = await applyMigrations(old, path.join(real, 'migrations'));
      expect(applied).toEqual(held);
      const users = await old.query<{
        id: string;
        username: string;
        website: string | null;
        profile_image_url: string | null;
      }>('select id, username, website, profile_image_url from public.users where id = any($1) order by id', [
        [DEMO.buyer, DEMO.seller, DEMO.admin, DEMO.otherBuyer],
      ]);
      expect(users.rows).toEqual([
        // demo_buyer's valid "demo_se11er" stays; demo_seller's invalid "demo seller" is repaired,
        // and "demo_seller" would look like demo_buyer's name, so it gets a suffix.
        { id: DEMO.buyer, username: 'demo_se11er', website: null, profile_image_url: null },
        {
          id: DEMO.seller,
          username: 'demo_seller_1',
          website: 'https://demo-seller.example.com',
          profile_image_url: null,
        },
        { id: DEMO.admin, username: 'x00', website: null, profile_image_url: null },
        { id: DEMO.otherBuyer, username: 'al_ex', website: 'https://alex.example', profile_image_url: null },
      ]);
      // quillworks' valid "nova_1abs" looks like the older nova_labs: the younger account is renamed.
      const lookAlikes = await old.query('select id, username from public.users where id = any($1) order by id', [
        [DEMO.otherSeller, QUILLWORKS],
      ]);
      expect(lookAlikes.rows).toEqual([
        { id: DEMO.otherSeller, username: 'nova_labs' },
        { id: QUILLWORKS, username: 'nova_1abs_1' },
      ]);
      const agent = await old.query('select thumbnail_url, images from public.agents where id = $1', [seedAgentId(1)]);
      expect(agent.rows).toEqual([{ thumbnail_url: null, images: ['/thumbnails/sales-1.svg'] }]);
    } finally {
      await old.close();
    }
  }, 120_000); // a database made from nothing, without the start-up snapshot
});
