/**
 * Data API contract driven through the real
 * supabase-js client. The fixture tables are created here, so these run on the local target.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient, userClient } from '../support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../support/contract-target';
import { installFixture, USER_A, USER_B, userToken } from './rest-fixture';

describe.skipIf(isHostedTarget)('Data API (local fixture)', () => {
  let target: ContractTarget;
  let anon: SupabaseClient;
  let service: SupabaseClient;
  let alice: SupabaseClient;
  let bob: SupabaseClient;
  let aliceToken: string;

  beforeAll(async () => {
    target = await startContractTarget({ seed: false });
    await installFixture(target);
    anon = anonClient(target);
    service = serviceClient(target);
    aliceToken = await userToken(target, USER_A);
    alice = userClient(target, aliceToken);
    bob = userClient(target, await userToken(target, USER_B));
  });
  afterAll(() => target?.close());

  const rest = (path: string, init: RequestInit & { token?: string } = {}) =>
    fetch(`${target.url}/rest/v1/${path}`, {
      ...init,
      headers: {
        apikey: target.anonKey,
        authorization: `Bearer ${init.token ?? target.anonKey}`,
        'content-type': 'application/json',
        ...(init.headers as Record<string, string>),
      },
    });

  describe('reads and RLS', () => {
    it('40: anon sees no rows of an owner-only table', async () => {
      const { data, error, status } = await anon.from('todos').select('*');
      expect(error).toBeNull();
      expect(status).toBe(200);
      expect(data).toEqual([]);
    });

    it('41: insert returns 201 with no body, or the row with .select().single()', async () => {
      const plain = await alice.from('todos').insert({ title: 'a' });
      expect(plain.status).toBe(201);
      expect(plain.data).toBeNull();
      expect(plain.error).toBeNull();
      const { data, status, error } = await alice.from('todos').insert({ title: 'b' }).select().single();
      expect(error).toBeNull();
      expect(status).toBe(201);
      expect(data).toMatchObject({ title: 'b', user_id: USER_A, done: false, due: null });
    });

    it('42: RLS refusals are 401 for anon and 403 for a signed-in user', async () => {
      const asAnon = await anon.from('todos').insert({ title: 'x' });
      expect(asAnon.status).toBe(401);
      expect(asAnon.error?.code).toBe('42501');
      const forged = await alice.from('todos').insert({ title: 'x', user_id: USER_B });
      expect(forged.status).toBe(403);
      expect(forged.error?.code).toBe('42501');
      expect(forged.error?.message).toBe('new row violates row-level security policy for table "todos"');
    });

    it('insert without a SELECT policy works when no representation is asked for', async () => {
      const { status, error } = await anon.from('guestbook').insert({ message: 'hello' });
      expect(error).toBeNull();
      expect(status).toBe(201);
    });

    it('43: constraint and input errors map to their SQLSTATE and status', async () => {
      const notNull = await alice.from('todos').insert({ title: null });
      expect([notNull.status, notNull.error?.code]).toEqual([400, '23502']);
      const { data: row } = await alice.from('todos').insert({ title: 'dup' }).select('id').single();
      const duplicate = await alice.from('todos').insert({ id: row!.id, title: 'dup' });
      expect([duplicate.status, duplicate.error?.code]).toEqual([409, '23505']);
      const fk = await alice.from('todos').insert({ title: 'fk', project_id: 999999 });
      expect([fk.status, fk.error?.code]).toEqual([409, '23503']);
      const check = await alice.from('todos').insert({ title: 'x'.repeat(300) });
      expect([check.status, check.error?.code]).toEqual([400, '23514']);
      const badUuid = await alice.from('todos').select().eq('id', 'abc');
      expect([badUuid.status, badUuid.error?.code]).toEqual([400, '22P02']);
      const unknownKey = await alice.from('todos').insert({ nope: 1 });
      expect([unknownKey.status, unknownKey.error?.code]).toEqual([400, 'PGRST204']);
      expect(unknownKey.error?.message).toBe("Could not find the 'nope' column of 'todos' in the schema cache");
    });

    it('44: head + count gives the number of own rows and no data', async () => {
      const { data: own } = await alice.from('todos').select('id');
      const { data, count, status, error } = await alice.from('todos').select('*', { count: 'exact', head: true });
      expect(error).toBeNull();
      expect(status).toBe(200);
      expect(data).toBeNull();
      expect(count).toBe(own!.length);
    });
  });

  describe('filters, order and paging', () => {
    beforeAll(async () => {
      const { error } = await bob.from('todos').insert([
        { title: 'a', due: '2030-01-01', tags: ['x'], done: true, data: { kind: 'chore', level: 1 } },
        { title: 'b,c', due: '2030-01-02', tags: ['x', 'y'], data: { kind: 'fun', level: 2 } },
        { title: 'Apple', due: null, tags: ['y'] },
        { title: 'd', due: '2030-01-04', tags: [] },
      ]);
      expect(error).toBeNull();
    });
    const titles = (rows: { title: string }[] | null) => (rows ?? []).map((row) => row.title).sort();

    it('45: order with nullslast and range → offset/limit, 206 when partial', async () => {
      const query = bob
        .from('todos')
        .select('id,title,due')
        .order('due', { ascending: false, nullsFirst: false })
        .range(0, 1);
      expect(query['url'].toString()).toContain('order=due.desc.nullslast&offset=0&limit=2');
      const { data } = await query;
      expect(data!.map((row) => row.due)).toEqual(['2030-01-04', '2030-01-02']);
      const counted = await bob.from('todos').select('title', { count: 'exact' }).order('title').range(0, 1);
      expect(counted.status).toBe(206);
      expect(counted.count).toBe(4);
      const nullsFirst = await bob.from('todos').select('title').order('due', { ascending: true, nullsFirst: true });
      expect(nullsFirst.data![0]!.title).toBe('Apple');
    });

    it('46: each filter returns exactly the rows SQL would', async () => {
      expect(titles((await bob.from('todos').select('title').in('title', ['a', 'b,c'])).data)).toEqual(['a', 'b,c']);
      expect(titles((await bob.from('todos').select('title').is('due', null)).data)).toEqual(['Apple']);
      expect(titles((await bob.from('todos').select('title').not('due', 'is', null)).data)).toEqual(['a', 'b,c', 'd']);
      expect(titles((await bob.from('todos').select('title').ilike('title', 'A*')).data)).toEqual(['Apple', 'a']);
      expect(titles((await bob.from('todos').select('title').like('title', 'A%')).data)).toEqual(['Apple']);
      expect(titles((await bob.from('todos').select('title').contains('tags', ['x'])).data)).toEqual(['a', 'b,c']);
      expect(titles((await bob.from('todos').select('title').containedBy('tags', ['x', 'y'])).data)).toEqual([
        'Apple',
        'a',
        'b,c',
        'd',
      ]);
      expect(titles((await bob.from('todos').select('title').or('done.eq.true,title.eq.d')).data)).toEqual(['a', 'd']);
      expect(titles((await bob.from('todos').select('title').neq('title', 'a')).data)).toEqual(['Apple', 'b,c', 'd']);
      expect(titles((await bob.from('todos').select('title').gt('due', '2030-01-01')).data)).toEqual(['b,c', 'd']);
      expect(titles((await bob.from('todos').select('title').gte('due', '2030-01-02')).data)).toEqual(['b,c', 'd']);
      expect(titles((await bob.from('todos').select('title').lt('due', '2030-01-02')).data)).toEqual(['a']);
      expect(titles((await bob.from('todos').select('title').lte('due', '2030-01-02')).data)).toEqual(['a', 'b,c']);
      expect(titles((await bob.from('todos').select('title').not('title', 'in', '(a,d)')).data)).toEqual([
        'Apple',
        'b,c',
      ]);
      expect(titles((await bob.from('todos').select('title').overlaps('tags', ['y'])).data)).toEqual(['Apple', 'b,c']);
    });

    it('nested logic trees, JSON paths and casts', async () => {
      const nested = await bob
        .from('todos')
        .select('title')
        .or('title.eq.d,and(done.eq.true,not.or(title.eq.x,title.eq.y))');
      expect(titles(nested.data)).toEqual(['a', 'd']);
      const json = await bob
        .from('todos')
        .select('title, kind:data->>kind, level:data->level')
        .eq('data->>kind', 'fun');
      expect(json.data).toEqual([{ title: 'b,c', kind: 'fun', level: 2 }]);
      const cast = await bob.from('todos').select('title,due::text').eq('title', 'a').single();
      expect(cast.data).toEqual({ title: 'a', due: '2030-01-01' });
      const stripped = await bob.from('todos').select('title,due').eq('title', 'Apple').stripNulls();
      expect(stripped.data).toEqual([{ title: 'Apple' }]);
      const strippedOne = await bob.from('todos').select('title,due').eq('title', 'Apple').single().stripNulls();
      expect(strippedOne.data).toEqual({ title: 'Apple' });
      const renamed = await bob.from('todos').select('name:title').eq('title', 'd');
      expect(renamed.data).toEqual([{ name: 'd' }]);
      const anded = await rest('todos?select=title&and=(due.gte.2030-01-02,due.lte.2030-01-03)', {
        token: await userToken(target, USER_B),
      });
      expect(await anded.json()).toEqual([{ title: 'b,c' }]);
    });

    it('Range header, Content-Range and 416 past the end', async () => {
      const token = await userToken(target, USER_B);
      const ranged = await rest('todos?select=title&order=title', {
        token,
        headers: { range: '1-2', prefer: 'count=exact' },
      });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get('content-range')).toBe('1-2/4');
      expect((await ranged.json()).length).toBe(2);
      const past = await rest('todos?select=title&offset=10', { token, headers: { prefer: 'count=exact' } });
      expect(past.status).toBe(416);
      expect((await past.json()).code).toBe('PGRST103');
      const empty = await rest('todos?select=title&title=eq.none', { token, headers: { prefer: 'count=exact' } });
      expect(empty.headers.get('content-range')).toBe('*/0');
      const inserted = await rest('todos', {
        token,
        method: 'POST',
        body: JSON.stringify([{ title: 'w1' }, { title: 'w2' }]),
        headers: { prefer: 'count=exact' },
      });
      expect([inserted.status, inserted.headers.get('content-range')]).toEqual([201, '*/2']);
      const patched = await rest('todos?title=in.(w1,w2)', {
        token,
        method: 'PATCH',
        body: JSON.stringify({ done: true }),
        headers: { prefer: 'count=exact' },
      });
      expect([patched.status, patched.headers.get('content-range')]).toEqual([204, '0-1/2']);
      const deleted = await rest('todos?title=in.(w1,w2)', {
        token,
        method: 'DELETE',
        headers: { prefer: 'count=exact' },
      });
      expect([deleted.status, deleted.headers.get('content-range')]).toEqual([204, '*/2']);
      const head = await rest('todos?select=title', { token, method: 'HEAD', headers: { prefer: 'count=exact' } });
      expect(head.headers.get('content-range')).toBe('0-3/4');
    });

    it('count=planned estimates, count=estimated is exact for small results', async () => {
      const planned = await bob.from('todos').select('title', { count: 'planned' }).order('title').range(0, 1);
      expect(planned.error).toBeNull();
      expect(planned.data).toHaveLength(2);
      // The planner's guess, but never fewer than the rows actually returned.
      expect(Number.isInteger(planned.count)).toBe(true);
      expect(planned.count).toBeGreaterThanOrEqual(2);
      const estimated = await bob.from('todos').select('title', { count: 'estimated', head: true });
      const exact = await bob.from('todos').select('title', { count: 'exact', head: true });
      expect(estimated.count).toBe(exact.count);

      const big = await bob.rpc('numbers', { n: 5000 }, { count: 'planned' }).range(0, 2);
      expect(big.error).toBeNull();
      expect(big.data).toHaveLength(3);
      expect(big.count).toBeGreaterThanOrEqual(3);
    });

    it('47: single and maybeSingle', async () => {
      const missing = await bob.from('todos').select().eq('id', '00000000-0000-4000-8000-000000000000').single();
      expect([missing.status, missing.error?.code]).toEqual([406, 'PGRST116']);
      const maybe = await bob.from('todos').select().eq('id', '00000000-0000-4000-8000-000000000000').maybeSingle();
      expect([maybe.status, maybe.data, maybe.error]).toEqual([200, null, null]);
      const many = await bob.from('todos').select().in('title', ['a', 'd']).maybeSingle();
      expect([many.status, many.error?.code]).toEqual([406, 'PGRST116']);
      expect(many.error?.message).toBe('JSON object requested, multiple (or no) rows returned');
    });
  });

  describe('writes', () => {
    it('48/49: update status codes, other users rows untouched, single rolls back', async () => {
      const { data: row } = await alice.from('todos').insert({ title: 'upd' }).select().single();
      const plain = await alice.from('todos').update({ done: true }).eq('id', row!.id);
      expect([plain.status, plain.data]).toEqual([204, null]);
      const selected = await alice.from('todos').update({ title: 'upd2' }).eq('id', row!.id).select();
      expect(selected.status).toBe(200);
      expect(selected.data).toHaveLength(1);
      const foreign = await bob.from('todos').update({ title: 'hacked' }).eq('id', row!.id).select();
      expect([foreign.status, foreign.data]).toEqual([200, []]);
      const missing = await alice
        .from('todos')
        .update({ done: false })
        .eq('id', '00000000-0000-4000-8000-000000000000')
        .select()
        .single();
      expect([missing.status, missing.error?.code]).toEqual([406, 'PGRST116']);
      await alice.from('todos').insert({ title: 'twin', done: false });
      await alice.from('todos').insert({ title: 'twin', done: false });
      const twins = await alice.from('todos').update({ done: true }).eq('title', 'twin').select().single();
      expect([twins.status, twins.error?.code]).toEqual([406, 'PGRST116']);
      const { data: after } = await alice.from('todos').select('done').eq('title', 'twin');
      expect(after).toEqual([{ done: false }, { done: false }]);
      const { data: mine } = await service.from('todos').select('title').eq('id', row!.id).single();
      expect(mine).toEqual({ title: 'upd2' });
    });

    it('50: delete with representation returns the deleted row', async () => {
      const { data: row } = await alice.from('todos').insert({ title: 'del' }).select().single();
      const { data, status } = await alice.from('todos').delete().eq('id', row!.id).select();
      expect(status).toBe(200);
      expect(data).toEqual([expect.objectContaining({ id: row!.id, title: 'del' })]);
      const gone = await alice.from('todos').delete().eq('id', row!.id);
      expect(gone.status).toBe(204);
    });

    it('51: upsert merges (200) or inserts (201); ignoreDuplicates leaves rows alone', async () => {
      const { data: row } = await alice.from('todos').insert({ title: 'up' }).select().single();
      const merged = await alice.from('todos').upsert({ id: row!.id, title: 'z' });
      expect(merged.status).toBe(200);
      const fresh = await alice.from('todos').upsert({ id: crypto.randomUUID(), title: 'new' });
      expect(fresh.status).toBe(201);
      const ignored = await alice
        .from('todos')
        .upsert([{ id: row!.id, title: 'ignored' }], { onConflict: 'id', ignoreDuplicates: true })
        .select();
      expect(ignored.data).toEqual([]);
      const { data } = await alice.from('todos').select('title').eq('id', row!.id).single();
      expect(data).toEqual({ title: 'z' });
    });

    it('bulk insert with columns, missing=default, and embedded representation', async () => {
      const { data: project } = await alice.from('projects').insert({ name: 'P', owner_id: USER_A }).select().single();
      const bulk = await alice
        .from('todos')
        .insert(
          [
            { title: 'b1', project_id: project!.id },
            { title: 'b2', done: true },
          ],
          { defaultToNull: false },
        )
        .select('title, done, projects(name)');
      expect(bulk.error).toBeNull();
      expect(bulk.data).toEqual(
        expect.arrayContaining([
          { title: 'b1', done: false, projects: { name: 'P' } },
          { title: 'b2', done: true, projects: null },
        ]),
      );
      const embedded = await alice.from('projects').select('name, todos(title)').eq('id', project!.id).single();
      expect(embedded.data).toEqual({ name: 'P', todos: [{ title: 'b1' }] });
      const inner = await alice.from('todos').select('title, projects!inner(name)').eq('projects.name', 'P');
      expect(inner.data).toEqual([{ title: 'b1', projects: { name: 'P' } }]);
      // The embed's filter picks the parent rows for the count and the range too (the seller's
      // Reviews page is read this way: reviews whose agent is the seller's, a page and its count).
      const innerPage = await alice
        .from('todos')
        .select('title, projects!inner(name)', { count: 'exact' })
        .eq('projects.name', 'P')
        .range(0, 0);
      expect([innerPage.count, innerPage.data]).toEqual([1, [{ title: 'b1', projects: { name: 'P' } }]]);
      const throughView = await alice
        .from('todo_cards')
        .select('title, project_name, projects(name)')
        .eq('title', 'b1');
      expect(throughView.error).toBeNull();
      expect(throughView.data).toEqual([{ title: 'b1', project_name: 'P', projects: { name: 'P' } }]);
      const intoView = await alice.from('projects').select('name, todo_cards(title)').eq('id', project!.id).single();
      expect(intoView.data).toEqual({ name: 'P', todo_cards: [{ title: 'b1' }] });
      const spread = await alice.from('todos').select('title, ...projects(project:name)').eq('title', 'b1').single();
      expect(spread.data).toEqual({ title: 'b1', project: 'P' });
    });

    it('57: update or delete without a filter is refused', async () => {
      const del = await alice.from('todos').delete();
      expect([del.status, del.error?.code]).toEqual([400, '21000']);
      const upd = await alice.from('todos').update({ done: true });
      expect([upd.status, upd.error?.code]).toEqual([400, '21000']);
    });
  });

  describe('rpc', () => {
    it('52: scalar, anonymous, void and unknown functions', async () => {
      expect((await alice.rpc('whoami')).data).toBe(USER_A);
      const asAnon = await anon.rpc('whoami');
      expect([asAnon.data, asAnon.error]).toEqual([null, null]);
      const voided = await alice.rpc('noop');
      expect([voided.status, voided.data]).toEqual([204, null]);
      const missing = await alice.rpc('nope');
      expect([missing.status, missing.error?.code]).toEqual([404, 'PGRST202']);
    });

    it('53: claims, method and headers reach SQL', async () => {
      const { data } = await alice.rpc('claims');
      expect(data.claims).toMatchObject({ role: 'authenticated', sub: USER_A, aud: 'authenticated' });
      expect(data.method).toBe('POST');
      expect(data.client).toMatch(/^supabase-js/);
    });

    it('arguments, defaults, GET, set results with filters, raise, json', async () => {
      expect((await alice.rpc('add', { a: 2, b: 3 })).data).toBe(5);
      expect((await alice.rpc('add', { a: 2 }, { get: true })).data).toBe(3);
      const set = await alice.rpc('numbers', { n: 5 }).gte('value', 2).order('value', { ascending: false }).limit(2);
      expect(set.data).toEqual([
        { value: 5, label: 'n5' },
        { value: 4, label: 'n4' },
      ]);
      const counted = await alice.rpc('numbers', { n: 5 }, { count: 'exact', head: true });
      expect(counted.count).toBe(5);
      const raised = await alice.rpc('fail', { message: 'nope!' });
      expect([raised.status, raised.error?.code, raised.error?.message]).toEqual([400, 'P0001', 'nope!']);
      expect((await alice.rpc('echo', { payload: { a: [1, 2] } })).data).toEqual({ a: [1, 2] });
      const wrongArgs = await alice.rpc('add', { z: 1 });
      expect(wrongArgs.error?.code).toBe('PGRST202');
    });

    it('GET arguments: each cast to its parameter type, with filters, order and paging on the set', async () => {
      const set = await alice.rpc('numbers', { n: 5 }, { get: true }).gte('value', 2).order('value').range(1, 2);
      expect(set.data).toEqual([
        { value: 3, label: 'n3' },
        { value: 4, label: 'n4' },
      ]);
      const badValue = await alice.rpc('add', { a: 'two' }, { get: true });
      expect([badValue.status, badValue.error?.code]).toEqual([400, '22P02']);
    });
  });

  describe('errors and safety', () => {
    it('54: unknown table → 404 PGRST205 with a hint', async () => {
      const { status, error } = await alice.from('todo').select();
      expect(status).toBe(404);
      expect(error?.code).toBe('PGRST205');
      expect(error?.hint).toBe("Perhaps you meant the table 'public.todos'");
    });

    it('55: expired, tampered, garbage, alg none and unknown-role JWTs are 401', async () => {
      const expired = await target.backend!.keys.sign({ sub: USER_A, role: 'authenticated' }, -10);
      const e = await rest('todos', { token: expired });
      expect(e.status).toBe(401);
      expect(await e.json()).toMatchObject({ code: 'PGRST303', message: 'JWT expired' });
      expect(e.headers.get('www-authenticate')).toMatch(/invalid_token/);
      const garbage = await rest('todos', { token: 'garbage' });
      expect([garbage.status, (await garbage.json()).code]).toEqual([401, 'PGRST301']);
      const tampered = aliceToken.slice(0, -3) + (aliceToken.endsWith('AAA') ? 'BBB' : 'AAA');
      const t = await rest('todos', { token: tampered });
      expect([t.status, (await t.json()).code]).toEqual([401, 'PGRST301']);
      const [, payload] = aliceToken.split('.');
      const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
      const n = await rest('todos', { token: none });
      expect([n.status, (await n.json()).code]).toEqual([401, 'PGRST301']);
      const postgres = await target.backend!.keys.sign({ role: 'postgres' }, 60);
      const p = await rest('todos', { token: postgres });
      expect(p.status).toBe(401);
    });

    it('malformed select, filters, order and paging → 400 PGRST100', async () => {
      for (const query of [
        'todos?select=title,(',
        'todos?title=xx.1',
        'todos?title=eq',
        'todos?order=title.sideways',
        'todos?limit=-1',
        'todos?or=(title.eq.a',
        'todos?or=title.eq.a',
        'todos?due=is.maybe',
        'todos?title=in.a,b',
        'todos?select=count()',
      ]) {
        const response = await rest(query, { token: aliceToken });
        expect(response.status, query).toBe(400);
        expect((await response.json()).code, query).toMatch(/^PGRST1(00|23)$/);
      }
    });

    it('unknown columns → 400 42703; bad JSON → 400 PGRST102; oversized body → 413', async () => {
      const unknown = await alice.from('todos').select('nope');
      expect([unknown.status, unknown.error?.code, unknown.error?.message]).toEqual([
        400,
        '42703',
        'column todos.nope does not exist',
      ]);
      const filter = await rest('todos?nope=eq.1', { token: aliceToken });
      expect([filter.status, (await filter.json()).code]).toEqual([400, '42703']);
      const order = await rest('todos?order=nope', { token: aliceToken });
      expect(order.status).toBe(400);
      const badJson = await rest('todos', { method: 'POST', body: '{"title":', token: aliceToken });
      expect([badJson.status, (await badJson.json()).code]).toEqual([400, 'PGRST102']);
      const empty = await rest('todos', { method: 'POST', body: '', token: aliceToken });
      expect([empty.status, (await empty.json()).code]).toEqual([400, 'PGRST102']);
      const mismatched = await rest('todos', {
        method: 'POST',
        body: '[{"title":"a"},{"done":true}]',
        token: aliceToken,
      });
      expect([mismatched.status, (await mismatched.json()).code]).toEqual([400, 'PGRST102']);
      const huge = await rest('todos', {
        method: 'POST',
        body: JSON.stringify({ title: 'x'.repeat(11 * 1024 * 1024) }),
        token: aliceToken,
      });
      expect(huge.status).toBe(413);
      const embed = await alice.from('todos').select('title, nothing(*)');
      expect([embed.status, embed.error?.code]).toEqual([400, 'PGRST200']);
      const profile = await rest('todos', { token: aliceToken, headers: { 'accept-profile': 'auth' } });
      expect([profile.status, (await profile.json()).code]).toEqual([406, 'PGRST106']);
    });

    it('injection-shaped input is data, never SQL', async () => {
      const before = (await service.from('todos').select('*', { count: 'exact', head: true })).count;
      for (const query of [
        `todos?title=eq.${encodeURIComponent("' or 1=1 --")}`,
        `todos?select=${encodeURIComponent('title,"x"";drop table todos;--"')}`,
        `todos?order=${encodeURIComponent('title;drop table todos')}`,
        `todos?${encodeURIComponent('title"; drop table todos; --')}=eq.1`,
        `todos?title=eq.${encodeURIComponent('a\u0000b')}`,
        `todos?data->>${encodeURIComponent("k'; drop table todos; --")}=eq.1`,
        `${encodeURIComponent('todos"; drop table todos; --')}`,
        `todos?title=in.(${encodeURIComponent('"a\\"),(b')})`,
      ]) {
        const response = await rest(query, { token: aliceToken });
        expect(response.status, query).toBeLessThan(500);
      }
      expect((await service.from('todos').select('*', { count: 'exact', head: true })).count).toBe(before);
    });

    it('56: the service key bypasses RLS', async () => {
      const { data } = await service.from('todos').select('user_id');
      const owners = new Set(data!.map((row) => row.user_id));
      expect(owners.has(USER_A) && owners.has(USER_B)).toBe(true);
    });

    it('a miss reloads the schema only when the catalog changed', async () => {
      const cache = await import('../../packages/supabase-embedded/src/rest/schema-cache');
      const db = target.backend!.db;
      const before = await cache.schemaFingerprint(db, 'public');
      expect(await cache.schemaFingerprint(db, 'public')).toBe(before);
      await db.exec('create table public.fingerprint_probe (id int)');
      const afterCreate = await cache.schemaFingerprint(db, 'public');
      expect(afterCreate).not.toBe(before);
      await db.exec('alter table public.fingerprint_probe rename column id to key');
      expect(await cache.schemaFingerprint(db, 'public')).not.toBe(afterCreate);
      const started = performance.now();
      for (let i = 0; i < 20; i++) await alice.from('todos').select('missing_column');
      expect(performance.now() - started).toBeLessThan(2000);
    });

    it('tables created after start are found without a restart', async () => {
      await target.backend!.db.exec(
        'create table public.late (id int primary key); insert into public.late values (1);',
      );
      const { data } = await service.from('late').select();
      expect(data).toEqual([{ id: 1 }]);
      await target.backend!.db.exec('alter table public.late add column note text');
      const added = await service.from('late').select('id,note');
      expect(added.data).toEqual([{ id: 1, note: null }]);
    });
  });
});
