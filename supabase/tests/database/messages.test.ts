/**
 * Messages (migration 20261217000100, ADR 070): a conversation is its two participants' (and an
 * admin's only while a report on it is open); every write goes through a function that checks
 * who asks, the length, a block and the sending rate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Claims, Database } from '../../../packages/supabase-embedded/src/database';
import { DEMO, anon, errorCodeAs, openSeededDatabase, rolledBackTransaction, user } from './helpers';

let db: Database;
beforeAll(async () => {
  db = await openSeededDatabase();
});
afterAll(async () => {
  await db?.close();
});

type Tx = Parameters<Parameters<typeof rolledBackTransaction>[1]>[0];

/** Runs `sql` as `claims` inside the open transaction `tx`, then goes back to the owner. */
async function as<T = Record<string, unknown>>(tx: Tx, claims: Claims, sql: string, params: unknown[] = []) {
  await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)]);
  await tx.query(`set local role ${claims.role}`);
  try {
    await tx.query('savepoint step');
    const result = await tx.query<T>(sql, params);
    await tx.query('release savepoint step');
    return { rows: result.rows, code: undefined as string | undefined };
  } catch (error) {
    await tx.query('rollback to savepoint step');
    return { rows: [] as T[], code: (error as { code?: string }).code };
  } finally {
    await tx.query('reset role');
  }
}

async function sellersAgent(): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `select id from public.agents where seller_id = $1 and status = 'published' order by created_at limit 1`,
    [DEMO.seller],
  );
  return rows[0]!.id;
}

describe('conversations', () => {
  it('a buyer starts one per agent; not about their own agent, an unknown one, or signed out', async () => {
    const agent = await sellersAgent();
    await rolledBackTransaction(db, async (tx) => {
      const first = await as<{ id: string }>(tx, user(DEMO.buyer), 'select public.start_conversation($1) as id', [
        agent,
      ]);
      const again = await as<{ id: string }>(tx, user(DEMO.buyer), 'select public.start_conversation($1) as id', [
        agent,
      ]);
      expect(first.rows[0]!.id).toBe(again.rows[0]!.id);
      expect((await as(tx, user(DEMO.seller), 'select public.start_conversation($1)', [agent])).code).toBe('22023');
      expect(
        (
          await as(tx, user(DEMO.buyer), 'select public.start_conversation($1)', [
            '00000000-0000-4000-8000-00000000dead',
          ])
        ).code,
      ).toBe('PT404');
    });
    expect(await errorCodeAs(db, anon, 'select public.start_conversation($1)', [agent])).toBe('42501');
  });

  it('only the two participants read it; others see nothing and cannot write; no direct writes', async () => {
    const agent = await sellersAgent();
    await rolledBackTransaction(db, async (tx) => {
      const talk = (
        await as<{ id: string }>(tx, user(DEMO.buyer), 'select public.start_conversation($1) as id', [agent])
      ).rows[0]!.id;
      expect(
        (await as(tx, user(DEMO.buyer), 'select public.send_message($1, $2)', [talk, 'Hello, does it run offline?']))
          .code,
      ).toBeUndefined();
      const seen = await as<{ body: string }>(
        tx,
        user(DEMO.seller),
        'select body from public.messages where conversation_id = $1',
        [talk],
      );
      expect(seen.rows).toEqual([{ body: 'Hello, does it run offline?' }]);
      for (const outsider of [user(DEMO.otherBuyer), user(DEMO.otherSeller), user(DEMO.admin)]) {
        expect(
          (await as(tx, outsider, 'select id, buyer_id, seller_id from public.conversations where id = $1', [talk]))
            .rows,
          String(outsider.sub),
        ).toEqual([]);
        expect(
          (await as(tx, outsider, 'select * from public.messages where conversation_id = $1', [talk])).rows,
        ).toEqual([]);
        expect((await as(tx, outsider, 'select public.send_message($1, $2)', [talk, 'me too'])).code).toBe('PT404');
      }
      expect(
        (
          await as(
            tx,
            user(DEMO.buyer),
            `insert into public.messages (conversation_id, sender_id, body) values ($1, $2, 'x')`,
            [talk, DEMO.buyer],
          )
        ).code,
      ).toBe('42501');
      expect(
        (await as(tx, user(DEMO.buyer), `update public.conversations set blocked_by = null where id = $1`, [talk]))
          .code,
      ).toBe('42501');
    });
  });

  it('counts what each participant has not read, until they read it', async () => {
    const agent = await sellersAgent();
    await rolledBackTransaction(db, async (tx) => {
      const talk = (
        await as<{ id: string }>(tx, user(DEMO.buyer), 'select public.start_conversation($1) as id', [agent])
      ).rows[0]!.id;
      await as(tx, user(DEMO.buyer), 'select public.send_message($1, $2)', [talk, 'One']);
      await as(tx, user(DEMO.buyer), 'select public.send_message($1, $2)', [talk, 'Two']);
      const unread = async (who: string) =>
        (
          await as<{ unread: string }>(tx, user(who), 'select unread from public.my_conversations() where id = $1', [
            talk,
          ])
        ).rows[0]?.unread;
      expect(Number(await unread(DEMO.seller))).toBe(2);
      expect(Number(await unread(DEMO.buyer))).toBe(0);
      await as(tx, user(DEMO.seller), 'select public.mark_conversation_read($1)', [talk]);
      expect(Number(await unread(DEMO.seller))).toBe(0);
    });
  });

  it('a block stops both from sending; only who blocked unblocks', async () => {
    const agent = await sellersAgent();
    await rolledBackTransaction(db, async (tx) => {
      const talk = (
        await as<{ id: string }>(tx, user(DEMO.buyer), 'select public.start_conversation($1) as id', [agent])
      ).rows[0]!.id;
      await as(tx, user(DEMO.seller), 'select public.set_conversation_blocked($1, true)', [talk]);
      expect((await as(tx, user(DEMO.buyer), 'select public.send_message($1, $2)', [talk, 'Hi?'])).code).toBe('PT403');
      expect((await as(tx, user(DEMO.buyer), 'select public.set_conversation_blocked($1, false)', [talk])).code).toBe(
        'PT403',
      );
      await as(tx, user(DEMO.seller), 'select public.set_conversation_blocked($1, false)', [talk]);
      expect(
        (await as(tx, user(DEMO.buyer), 'select public.send_message($1, $2)', [talk, 'Hi?'])).code,
      ).toBeUndefined();
    });
  });

  it('an admin reads a conversation while a report on it is open, not before or after', async () => {
    const agent = await sellersAgent();
    await rolledBackTransaction(db, async (tx) => {
      const talk = (
        await as<{ id: string }>(tx, user(DEMO.buyer), 'select public.start_conversation($1) as id', [agent])
      ).rows[0]!.id;
      await as(tx, user(DEMO.seller), 'select public.send_message($1, $2)', [talk, 'Pay me outside the site']);
      const adminReads = async () =>
        (await as(tx, user(DEMO.admin), 'select body from public.messages where conversation_id = $1', [talk])).rows;
      expect(await adminReads()).toEqual([]);
      const report = (
        await as<{ id: string }>(tx, user(DEMO.buyer), 'select public.report_conversation($1, $2) as id', [
          talk,
          'Asks to pay outside',
        ])
      ).rows[0]!.id;
      expect(await adminReads()).toEqual([{ body: 'Pay me outside the site' }]);
      expect((await as(tx, user(DEMO.buyer), 'select public.resolve_conversation_report($1)', [report])).code).toBe(
        '42501',
      );
      await as(tx, user(DEMO.admin), 'select public.resolve_conversation_report($1)', [report]);
      expect(await adminReads()).toEqual([]);
    });
  });

  it('refuses an empty or overlong message and more than 20 a minute', async () => {
    const agent = await sellersAgent();
    await rolledBackTransaction(db, async (tx) => {
      const talk = (
        await as<{ id: string }>(tx, user(DEMO.buyer), 'select public.start_conversation($1) as id', [agent])
      ).rows[0]!.id;
      for (const body of ['', '   ', 'x'.repeat(5001)]) {
        expect((await as(tx, user(DEMO.buyer), 'select public.send_message($1, $2)', [talk, body])).code).toBe('22023');
      }
      for (let sent = 0; sent < 20; sent++) {
        expect(
          (await as(tx, user(DEMO.buyer), 'select public.send_message($1, $2)', [talk, `Message ${sent}`])).code,
        ).toBeUndefined();
      }
      expect((await as(tx, user(DEMO.buyer), 'select public.send_message($1, $2)', [talk, 'One too many'])).code).toBe(
        'PT429',
      );
    });
  });
  it('deleting agents a buyer asked about keeps both conversations, without their agent', async () => {
    const { rows: unsold } = await db.query<{ id: string; seller_id: string }>(
      `select a.id, a.seller_id from public.agents a
        where a.status = 'published' and not exists (select 1 from public.purchases p where p.agent_id = a.id)
          and a.seller_id = (select a2.seller_id from public.agents a2 where a2.status = 'published'
                               and not exists (select 1 from public.purchases p where p.agent_id = a2.id)
                             group by a2.seller_id having count(*) >= 2 order by a2.seller_id limit 1)
        order by a.created_at limit 2`,
    );
    expect(unsold).toHaveLength(2);
    await rolledBackTransaction(db, async (tx) => {
      for (const agent of unsold) {
        const started = await as(tx, user(DEMO.buyer), 'select public.start_conversation($1)', [agent.id]);
        expect(started.code).toBeUndefined();
      }
      await tx.query('delete from public.agents where id = any($1)', [unsold.map((agent) => agent.id)]);
      const { rows } = await tx.query<{ n: number }>(
        'select count(*)::int as n from public.conversations where buyer_id = $1 and seller_id = $2 and agent_id is null',
        [DEMO.buyer, unsold[0]!.seller_id],
      );
      expect(rows).toEqual([{ n: 2 }]);
    });
  });
});

describe('what the attack review of the pages found', () => {
  it('reads conversations and messages by index, without a function call per row', async () => {
    await rolledBackTransaction(db, async (tx) => {
      for (const sql of ['select id from public.messages limit 1', 'select id from public.conversations limit 1']) {
        const plan = await as<{ 'QUERY PLAN': string }>(tx, user(DEMO.buyer), `explain ${sql}`);
        const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(text, sql).not.toContain('can_read_conversation');
      }
    });
  });

  it('keeps when the other participant was mailed to the server', async () => {
    const agent = await sellersAgent();
    await rolledBackTransaction(db, async (tx) => {
      const [started] = (
        await as<{ id: string }>(tx, user(DEMO.buyer), 'select public.start_conversation($1) as id', [agent])
      ).rows;
      const hidden = await as(
        tx,
        user(DEMO.buyer),
        'select seller_notified_at from public.conversations where id = $1',
        [started!.id],
      );
      expect(hidden.code).toBe('42501');
      const shown = await as(tx, user(DEMO.buyer), 'select id, blocked_by from public.conversations where id = $1', [
        started!.id,
      ]);
      expect(shown.rows).toHaveLength(1);
    });
  });

  it('asks for the second factor in the list and name functions too', async () => {
    const agent = await sellersAgent();
    await rolledBackTransaction(db, async (tx) => {
      const [started] = (
        await as<{ id: string }>(tx, user(DEMO.buyer), 'select public.start_conversation($1) as id', [agent])
      ).rows;
      await as(tx, user(DEMO.buyer), 'select public.send_message($1, $2)', [started!.id, 'Hello']);
      await tx.query(
        `insert into auth.mfa_factors (id, user_id, status, secret) values (gen_random_uuid(), $1, 'verified', 'x')`,
        [DEMO.seller],
      );
      const passwordOnly = { ...user(DEMO.seller), aal: 'aal1' };
      const withCode = { ...user(DEMO.seller), aal: 'aal2' };
      for (const sql of ['select * from public.my_conversations()', 'select * from public.conversation_context($1)']) {
        const params = sql.includes('$1') ? [started!.id] : [];
        expect((await as(tx, passwordOnly, sql, params)).rows, sql).toEqual([]);
        expect((await as(tx, withCode, sql, params)).rows, sql).toHaveLength(1);
      }
      const unread = (who: Claims) =>
        as<{ n: string }>(tx, who, 'select public.my_unread_conversations() as n').then((r) => Number(r.rows[0]!.n));
      expect([await unread(passwordOnly), await unread(withCode)]).toEqual([0, 1]);
    });
  });

  it('refuses text of only format and filler characters, and takes any real letter', async () => {
    const agent = await sellersAgent();
    await rolledBackTransaction(db, async (tx) => {
      const [started] = (
        await as<{ id: string }>(tx, user(DEMO.buyer), 'select public.start_conversation($1) as id', [agent])
      ).rows;
      for (const blank of [
        '\u200c',
        '\u200d\u200e',
        '\u2800\u3164',
        '\u00ad\u034f',
        '\ufe0f',
        '\u0301',
        '\u{e0020}',
        '\u202e',
      ]) {
        const sent = await as(tx, user(DEMO.buyer), 'select public.send_message($1, $2)', [started!.id, blank]);
        expect(sent.code, JSON.stringify(blank)).toBe('22023');
      }
      for (const text of ['é', '中文', '👍', 'a\u0301', 'مرحبا']) {
        const sent = await as(tx, user(DEMO.buyer), 'select public.send_message($1, $2)', [started!.id, text]);
        expect(sent.code, text).toBeUndefined();
      }
    });
  });

  it('lets a person start at most 10 conversations an hour', async () => {
    const { rows: agents } = await db.query<{ id: string }>(
      `select id from public.agents where status = 'published' and seller_id <> $1 order by created_at limit 11`,
      [DEMO.otherBuyer],
    );
    await rolledBackTransaction(db, async (tx) => {
      const codes: (string | undefined)[] = [];
      for (const agent of agents) {
        codes.push((await as(tx, user(DEMO.otherBuyer), 'select public.start_conversation($1)', [agent.id])).code);
      }
      expect(codes.slice(0, 10)).toEqual(Array(10).fill(undefined));
      expect(codes[10]).toBe('PT429');
      // Asking again about one already started is no new conversation.
      expect(
        (await as(tx, user(DEMO.otherBuyer), 'select public.start_conversation($1)', [agents[0]!.id])).code,
      ).toBeUndefined();
    });
  });

  it('takes a report of a message of the other person, at most 10 a day', async () => {
    const { rows: agents } = await db.query<{ id: string; seller_id: string }>(
      `select id, seller_id from public.agents where status = 'published' and seller_id <> $1 order by created_at limit 11`,
      [DEMO.otherBuyer],
    );
    await rolledBackTransaction(db, async (tx) => {
      const talks: string[] = [];
      for (const agent of agents) {
        const { rows } = await tx.query<{ id: string }>(
          `insert into public.conversations (agent_id, buyer_id, seller_id) values ($1, $2, $3) returning id`,
          [agent.id, DEMO.otherBuyer, agent.seller_id],
        );
        talks.push(rows[0]!.id);
      }
      const report = (talk: string) =>
        as(tx, user(DEMO.otherBuyer), 'select public.report_conversation($1, $2)', [talk, 'Spam']);
      expect((await report(talks[0]!)).code).toBe('PT409');
      for (const [index, talk] of talks.entries()) {
        await tx.query(
          `insert into public.messages (conversation_id, sender_id, body) values ($1, $2, 'Buy my course')`,
          [talk, agents[index]!.seller_id],
        );
      }
      const codes: (string | undefined)[] = [];
      for (const talk of talks) codes.push((await report(talk)).code);
      expect(codes.slice(0, 10)).toEqual(Array(10).fill(undefined));
      expect(codes[10]).toBe('PT429');
    });
  });
});
