/**
 * Review replies against the embedded backend (seeded, in memory; real supabase-js clients): the
 * agent's seller writes, edits and deletes one public reply; the database refuses anyone else
 * (row-level security), the action answers a forged form with 404 and a buyer with 403; the
 * reply shows on the agent page and goes with its review when an admin removes it.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import {
  DEMO_VIEWERS,
  routeAnswer as outcome,
  routeContext,
  signedInClient,
  type TestViewer,
} from '../../tests/support/route-context';
import { REPLY_MESSAGES } from '~/schemas/review-reply';
import { listReviewPage } from '~/server/agent-detail.server';
import { changeReply, listSellerReviews, replyAction } from '~/server/review-replies.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const NOVA: TestViewer = { id: '00000000-0000-4000-8000-000000000011', email: 'nova.labs@demo.test', role: 'seller' };
const CAMPAIGN_PILOT = 'a0000000-0000-4000-8000-000000000001'; // demo_seller's
const REVIEW = 'c0000000-0000-4000-8000-000000000001'; // demo_buyer's review of CampaignPilot

describe.skipIf(isHostedTarget)('review replies', () => {
  let target: ContractTarget;
  let service: SupabaseClient;
  const clients = new Map<string, SupabaseClient>();
  const as = (viewer: TestViewer) => clients.get(viewer.email)! as unknown as AppSupabaseClient;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target);
    for (const viewer of [DEMO_VIEWERS.seller, DEMO_VIEWERS.buyer, NOVA]) {
      clients.set(viewer.email, await signedInClient(target, viewer.email));
    }
  });
  afterAll(() => target?.close());

  const replyOf = async (reviewId: string) =>
    (await service.from('review_replies').select('reply_text').eq('review_id', reviewId).maybeSingle()).data
      ?.reply_text ?? null;

  function post(viewer: TestViewer, form: Record<string, string>) {
    const url = new URL(`http://localhost/dashboard/reviews?reply=${form.reviewId ?? ''}`);
    const body = new FormData();
    for (const [name, value] of Object.entries(form)) body.set(name, value);
    return replyAction({
      request: new Request(url, { method: 'POST', body }),
      context: routeContext(target, viewer, clients.get(viewer.email)!),
      url,
      pattern: 'dashboard/reviews',
    });
  }

  it('lists the reviews of the seller’s agents only, newest first', async () => {
    const page = await listSellerReviews(as(DEMO_VIEWERS.seller), { sellerId: DEMO_VIEWERS.seller.id, page: 1 });
    expect(page.total).toBeGreaterThan(0);
    expect(page.rows.some((row) => row.id === REVIEW && row.author === 'demo_buyer')).toBe(true);
    const dates = page.rows.map((row) => row.createdAt);
    expect(dates).toEqual(dates.toSorted().reverse());
    const novaPage = await listSellerReviews(as(NOVA), { sellerId: NOVA.id, page: 1 });
    expect(novaPage.rows.some((row) => row.id === REVIEW)).toBe(false);
  });

  it('the seller writes, edits and deletes the one reply through the form; the agent page shows it', async () => {
    const saved = await outcome(
      post(DEMO_VIEWERS.seller, { intent: 'save', reviewId: REVIEW, reply: '  Thank you!  ' }),
    );
    expect(saved).toMatchObject({ status: 303, location: '/dashboard/reviews' });
    expect(await replyOf(REVIEW)).toBe('Thank you!');

    await outcome(post(DEMO_VIEWERS.seller, { intent: 'save', reviewId: REVIEW, reply: 'Thanks, Dana.' }));
    expect(await replyOf(REVIEW)).toBe('Thanks, Dana.');
    const { count } = await service
      .from('review_replies')
      .select('*', { count: 'exact', head: true })
      .eq('review_id', REVIEW);
    expect(count).toBe(1);

    const onPage = await listReviewPage(anonClient(target) as unknown as AppSupabaseClient, CAMPAIGN_PILOT, {
      from: 0,
      to: 50,
    });
    expect(onPage.find((review) => review.id === REVIEW)?.reply?.text).toBe('Thanks, Dana.');
    expect(onPage.filter((review) => review.id !== REVIEW).every((review) => review.reply === null)).toBe(true);

    expect(await outcome(post(DEMO_VIEWERS.seller, { intent: 'delete', reviewId: REVIEW }))).toMatchObject({
      status: 303,
    });
    expect(await replyOf(REVIEW)).toBeNull();
    expect(await changeReply(as(DEMO_VIEWERS.seller), { intent: 'delete', reviewId: REVIEW })).toEqual({
      ok: false,
      status: 404,
      message: REPLY_MESSAGES.nothingToDelete,
    });
  });

  it('refuses a blank or too long reply beside the field (400)', async () => {
    const blank = await outcome(post(DEMO_VIEWERS.seller, { intent: 'save', reviewId: REVIEW, reply: '   ' }));
    expect(blank.status).toBe(400);
    expect(blank.result?.error?.reply).toEqual([REPLY_MESSAGES.empty]);
    const long = await outcome(
      post(DEMO_VIEWERS.seller, { intent: 'save', reviewId: REVIEW, reply: 'x'.repeat(1001) }),
    );
    expect(long.status).toBe(400);
    expect(long.result?.error?.reply).toEqual([REPLY_MESSAGES.tooLong]);
    expect(await replyOf(REVIEW)).toBeNull();
  });

  it('refuses another seller (404, forged form) and a buyer (403); the database refuses their writes too', async () => {
    await changeReply(as(DEMO_VIEWERS.seller), { intent: 'save', reviewId: REVIEW, reply: 'Original reply.' });

    const forged = await outcome(post(NOVA, { intent: 'save', reviewId: REVIEW, reply: 'Hijacked' }));
    expect(forged.status).toBe(404);
    expect(forged.result?.message).toBe(REPLY_MESSAGES.notYours);
    expect((await outcome(post(NOVA, { intent: 'delete', reviewId: REVIEW }))).status).toBe(404);
    expect((await outcome(post(DEMO_VIEWERS.buyer, { intent: 'save', reviewId: REVIEW, reply: 'Mine' }))).status).toBe(
      403,
    );

    // Straight to the Data API, past the app's check.
    for (const viewer of [NOVA, DEMO_VIEWERS.buyer]) {
      const client = as(viewer);
      const upsert = await client
        .from('review_replies')
        .upsert({ review_id: REVIEW, reply_text: 'Hijacked' }, { onConflict: 'review_id' });
      expect(upsert.error, viewer.email).not.toBeNull();
      await client.from('review_replies').update({ reply_text: 'Hijacked' }).eq('review_id', REVIEW);
      await client.from('review_replies').delete().eq('review_id', REVIEW);
    }
    const anonInsert = await anonClient(target)
      .from('review_replies')
      .insert({ review_id: 'c0000000-0000-4000-8000-000000000002', reply_text: 'Anon' });
    expect(anonInsert.error).not.toBeNull();
    expect(await replyOf(REVIEW)).toBe('Original reply.');
  });

  it('goes with its review when an admin removes it; the audit row keeps the reply', async () => {
    await changeReply(as(DEMO_VIEWERS.seller), { intent: 'save', reviewId: REVIEW, reply: 'Reply to remove.' });
    const { error } = await service.rpc('admin_remove_review', {
      actor: DEMO_VIEWERS.admin.id,
      target: REVIEW,
      reason: 'Test removal',
    });
    expect(error).toBeNull();
    expect(await replyOf(REVIEW)).toBeNull();
    const { data: audit } = await service
      .from('audit_log')
      .select('details')
      .eq('target_id', REVIEW)
      .eq('action', 'review.removed')
      .single();
    expect(audit?.details).toMatchObject({ reply: 'Reply to remove.' });
  });
});
