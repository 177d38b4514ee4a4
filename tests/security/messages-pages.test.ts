/**
 * Messages on the whole app (real request handler, the embedded backend in memory with the demo
 * data; ADRs 070, 071): a buyer writes to a seller from the agent, the seller reads and answers,
 * each gets one email notice a quarter hour, a stranger reads nothing, bad text is a 4xx beside
 * the box, a block stops both, a report opens the conversation to admins until they close it,
 * the minute's limit answers 429, and a long conversation pages back in fifties.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../packages/supabase-embedded/src/auth/outbox';
import { getPage, postForm, signInThroughApp, startAppInProcess, type AppInProcess } from '../support/app-in-process';

let app: AppInProcess;
let buyer: string;
let seller: string;
let admin: string;
let stranger: string;
let agentId: string;
let ownAgentId: string;

async function sql<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
  return (await app.backend.db.query<Row>(text, params)).rows;
}

beforeAll(async () => {
  app = await startAppInProcess();
  [buyer, seller, admin, stranger] = (await Promise.all(
    ['buyer@demo.test', 'seller@demo.test', 'admin@demo.test', 'alex.rivera@demo.test'].map((email) =>
      signInThroughApp(app.origin, email),
    ),
  )) as [string, string, string, string];
  const [agent] = await sql<{ id: string }>(
    `select a.id from public.agents a join public.users u on u.id = a.seller_id
      where u.email = 'seller@demo.test' and a.status = 'published' order by a.created_at limit 1`,
  );
  agentId = agent!.id;
  ownAgentId = agentId;
}, 120_000);
afterAll(() => app?.close());

const get = (path: string, cookie: string | null) => getPage(app.origin, path, cookie);

const post = (path: string, cookie: string, fields: Record<string, string>) =>
  postForm(app.origin, path, cookie, fields);

const notices = async (to: string) =>
  (await readOutbox(app.backend.db, { to })).filter((email) => email.type === 'message_notice');

let threadPath = '';

describe('a conversation between a buyer and a seller', () => {
  it('starts from the agent page with the first message, and the seller reads it under Messages', async () => {
    const agentPage = await (await get(`/agent/${agentId}`, buyer)).text();
    expect(agentPage).toContain(`/dashboard/conversations/new?agent=${agentId}`);
    expect(agentPage).toContain('Message the seller');

    const form = await get(`/dashboard/conversations/new?agent=${agentId}`, buyer);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('Your message');

    const sent = await post(`/dashboard/conversations/new?agent=${agentId}`, buyer, {
      agentId,
      body: 'Hello <b>there</b>, see https://example.test/setup please',
    });
    expect(sent.status).toBe(303);
    threadPath = new URL(sent.headers.get('location')!, app.origin).pathname;
    expect(threadPath).toMatch(/^\/dashboard\/conversations\/[0-9a-f-]{36}$/);

    // Asked again: the same conversation.
    const again = await get(`/dashboard/conversations/new?agent=${agentId}`, buyer);
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toContain(threadPath);

    // Text only: the markup is escaped and the address is no link.
    const thread = await (await get(threadPath, buyer)).text();
    expect(thread).toContain('Hello &lt;b&gt;there&lt;/b&gt;, see https://example.test/setup please');
    expect(thread).not.toContain('href="https://example.test');

    const list = await (await get('/dashboard/messages', seller)).text();
    expect(list).toContain('1 new message');
    expect(list).toContain('your customer');
    const sellerThread = threadPath.replace('/conversations/', '/messages/');
    expect((await get(sellerThread, seller)).status).toBe(200);
    expect(await (await get('/dashboard/messages', seller)).text()).not.toContain('new message<');
  });

  it('emails each side once a quarter hour, as their preference says', async () => {
    expect(await notices('seller@demo.test')).toHaveLength(1);
    const [first] = await notices('seller@demo.test');
    expect(first!.subject).toMatch(/^New message from demo_buyer about /);
    expect(first!.text).toContain('> Hello <b>there</b>, see https://example.test/setup please');
    expect(first!.text).toContain(`/dashboard/messages/${threadPath.split('/').at(-1)}`);

    expect((await post(threadPath, buyer, { intent: 'send', body: 'One more thing.' })).status).toBe(303);
    expect(await notices('seller@demo.test')).toHaveLength(1);

    const sellerThread = threadPath.replace('/conversations/', '/messages/');
    expect((await post(sellerThread, seller, { intent: 'send', body: 'Happy to help.' })).status).toBe(303);
    const buyerNotices = await notices('buyer@demo.test');
    expect(buyerNotices).toHaveLength(1);
    expect(buyerNotices[0]!.text).toContain(`/dashboard/conversations/${threadPath.split('/').at(-1)}`);

    // A quarter hour later the next message mails again, unless the recipient turned emails off.
    await sql(`update public.conversations set seller_notified_at = now() - interval '16 minutes'`);
    await sql(
      `update public.user_settings set email_notifications = false
        where user_id = (select id from public.users where email = 'seller@demo.test')`,
    );
    expect((await post(threadPath, buyer, { intent: 'send', body: 'Still there?' })).status).toBe(303);
    expect(await notices('seller@demo.test')).toHaveLength(1);
    await sql(
      `update public.user_settings set email_notifications = true
        where user_id = (select id from public.users where email = 'seller@demo.test')`,
    );
    expect((await post(threadPath, buyer, { intent: 'send', body: 'Hello again.' })).status).toBe(303);
    expect(await notices('seller@demo.test')).toHaveLength(2);

    // Conversations about the seller's other agents, at once: no more email within the quarter hour.
    const others = await sql<{ id: string }>(
      `select a.id from public.agents a join public.users u on u.id = a.seller_id
        where u.email = 'seller@demo.test' and a.status = 'published' and a.id <> $1 order by a.created_at limit 3`,
      [agentId],
    );
    for (const other of others) {
      const started = await post('/dashboard/conversations/new', stranger, { agentId: other.id, body: 'Hi there' });
      expect(started.status).toBe(303);
    }
    expect(await notices('seller@demo.test')).toHaveLength(2);
  });

  it('is nobody else’s: a stranger gets 404 reading or writing, and a buyer has no seller section', async () => {
    expect((await get(threadPath, stranger)).status).toBe(404);
    const forged = await post(threadPath, stranger, { intent: 'send', body: 'Let me in' });
    expect(forged.status).toBe(404);
    expect(await forged.text()).toContain('This conversation does not exist or is not yours.');
    expect((await get('/dashboard/messages', buyer)).status).toBe(403);
    expect((await get('/dashboard/conversations', buyer)).status).toBe(200);
    expect((await get('/dashboard/conversations/not-an-id', buyer)).status).toBe(404);
    const visitor = await get(`/dashboard/conversations/new?agent=${agentId}`, null);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('location')).toContain('auth=sign-in');
  });

  it('answers bad text with a 4xx beside the box, and keeps what was typed', async () => {
    const blank = await post(threadPath, buyer, { intent: 'send', body: '   ' });
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain('Please write a message.');
    const invisible = await post(threadPath, buyer, { intent: 'send', body: '\u200b\u00a0' });
    expect(invisible.status).toBe(400);
    expect(await invisible.text()).toContain('Please write a message.');
    const long = await post(threadPath, buyer, { intent: 'send', body: `kept ${'x'.repeat(5000)}` });
    expect(long.status).toBe(400);
    const longPage = await long.text();
    expect(longPage).toContain('A message can be at most 5,000 characters.');
    expect(longPage).toContain('kept xxxx');
    expect((await post(threadPath, buyer, { intent: 'shout' })).status).toBe(400);
    const forged = await post('/dashboard/conversations/new', buyer, { agentId: 'x', body: 'Hi' });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('Choose an agent.');
  });

  it('refuses a message about one’s own agent or an unknown one', async () => {
    const own = await get(`/dashboard/messages/new?agent=${ownAgentId}`, seller);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('This is your own agent');
    const ownPost = await post(`/dashboard/messages/new?agent=${ownAgentId}`, seller, {
      agentId: ownAgentId,
      body: 'Me',
    });
    expect(ownPost.status).toBe(400);
    const unknown = '00000000-0000-4000-8000-00000000dead';
    expect((await get(`/dashboard/conversations/new?agent=${unknown}`, buyer)).status).toBe(404);
    const gone = await post('/dashboard/conversations/new', buyer, { agentId: unknown, body: 'Hi' });
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('This agent does not exist or is not published.');
  });
});

describe('block and report', () => {
  it('a block stops both sides until the one who blocked unblocks', async () => {
    const sellerThread = threadPath.replace('/conversations/', '/messages/');
    // A second conversation of the two, about another agent, started before the block.
    const [otherAgent] = await sql<{ id: string }>(
      `select a.id from public.agents a join public.users u on u.id = a.seller_id
        where u.email = 'seller@demo.test' and a.status = 'published' and a.id <> $1 order by a.created_at desc limit 1`,
      [agentId],
    );
    const second = await post('/dashboard/conversations/new', buyer, {
      agentId: otherAgent!.id,
      body: 'Also this one?',
    });
    const secondPath = new URL(second.headers.get('location')!, app.origin).pathname;

    expect((await post(sellerThread, seller, { intent: 'block' })).status).toBe(303);
    const buyerView = await (await get(threadPath, buyer)).text();
    expect(buyerView).toContain('blocked messages between you. You cannot send messages here.');
    expect(buyerView).not.toContain('name="body"');
    // The block holds in the other conversation too, and says where it was placed.
    const elsewhere = await (await get(secondPath, buyer)).text();
    expect(elsewhere).toContain('blocked messages between you.');
    expect(elsewhere).not.toContain('name="body"');
    const sellerElsewhere = await (await get(secondPath.replace('/conversations/', '/messages/'), seller)).text();
    expect(sellerElsewhere).toContain('>another conversation</a>');
    expect(sellerElsewhere).toContain(`href="${sellerThread}"`);
    expect(sellerElsewhere).not.toContain('name="body"');
    const refused = await post(threadPath, buyer, { intent: 'send', body: 'Why?' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('This conversation is blocked');
    expect((await post(threadPath, buyer, { intent: 'unblock' })).status).toBe(403);
    expect((await post(sellerThread, seller, { intent: 'unblock' })).status).toBe(303);
    expect((await post(threadPath, buyer, { intent: 'send', body: 'Thanks for unblocking.' })).status).toBe(303);
  });

  it('a report opens the conversation to admins, with the reason, until they close it', async () => {
    expect((await get('/dashboard/messages', admin)).status).toBe(200);
    expect((await get(threadPath.replace('/conversations/', '/messages/'), admin)).status).toBe(404);

    const empty = await post(threadPath, buyer, { intent: 'report', reason: ' ' });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('Please say why you report this conversation.');
    expect(
      (await post(threadPath, buyer, { intent: 'report', reason: 'Asked me to pay outside <the site>' })).status,
    ).toBe(303);
    expect(await (await get(threadPath, buyer)).text()).toContain('You reported this conversation on');

    const list = await (await get('/dashboard/messages', admin)).text();
    expect(list).toMatch(/Reported conversations \((<!-- -->)?1(<!-- -->)?\)/);
    expect(list).toContain('Asked me to pay outside &lt;the site&gt;');
    const adminThread = threadPath.replace('/conversations/', '/messages/');
    const reading = await get(adminThread, admin);
    expect(reading.status).toBe(200);
    const html = await reading.text();
    expect(html).toContain('Thanks for unblocking.');
    expect(html).not.toContain('name="body"');
    const [report] = await sql<{ id: string }>('select id from public.conversation_reports where resolved_at is null');

    // Only an admin closes it; the buyer's forged close is refused.
    expect((await post(threadPath, buyer, { intent: 'resolve', reportId: report!.id })).status).toBe(403);
    const closed = await post(adminThread, admin, { intent: 'resolve', reportId: report!.id });
    expect(closed.status).toBe(303);
    expect(closed.headers.get('location')).toBe('/dashboard/messages');
    expect((await get(adminThread, admin)).status).toBe(404);
  });
});

describe('limits and long conversations', () => {
  it('answers the 21st message of a minute with 429 and the reason', async () => {
    const sellerThread = threadPath.replace('/conversations/', '/messages/');
    // The seller has sent one in this file so far.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      statuses.push((await post(sellerThread, seller, { intent: 'send', body: `Reply ${i}` })).status);
    }
    expect(statuses.slice(0, 19).every((status) => status === 303)).toBe(true);
    const last = await post(sellerThread, seller, { intent: 'send', body: 'One too many' });
    expect(last.status).toBe(429);
    expect(await last.text()).toContain('You are sending messages too fast. Wait a minute, then send again.');
  });

  it('shows the last fifty and pages back through the rest', async () => {
    const id = threadPath.split('/').at(-1)!;
    await sql(
      `insert into public.messages (conversation_id, sender_id, body, created_at)
        select $1, c.buyer_id, 'Old message ' || n, now() - interval '1 day' + n * interval '1 second'
        from public.conversations c, generate_series(1, 120) n where c.id = $1`,
      [id],
    );
    const latest = await (await get(threadPath, buyer)).text();
    expect(latest).toContain('Show earlier messages');
    expect(latest).not.toContain('Old message 1<');
    const before = latest.match(/\?before=([0-9a-f-]{36})/)?.[1];
    expect(before).toBeTruthy();
    const earlier = await (await get(`${threadPath}?before=${before}`, buyer)).text();
    const shown = [...earlier.matchAll(/Old message (\d+)</g)].map((match) => Number(match[1]));
    expect(shown).toHaveLength(50);
    expect(Math.max(...shown)).toBeLessThan(
      Math.min(...[...latest.matchAll(/Old message (\d+)</g)].map((m) => Number(m[1]))),
    );
    expect((await get(`${threadPath}?before=nonsense`, buyer)).status).toBe(200);
  });
});
