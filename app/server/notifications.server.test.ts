/**
 * The product's emails against the embedded backend: a completed purchase sends the buyer a
 * receipt and the seller a sale notice through the Auth service's outbox, each only while that
 * user keeps email notifications on; the outbox endpoint takes the service key only. With
 * SMTP_URL the app sends them itself, with nodemailer, to a real SMTP listener here; with
 * neither, the start-up log says product emails are off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '@agentmarket/supabase-embedded';
import { serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { startSmtpSink } from '../../tests/support/smtp-sink';
import {
  productMailer,
  productMailNotice,
  productMailRoute,
  productSmtp,
  type ProductMailer,
} from '~/server/notifications.server';
import { testPaymentProvider } from '~/server/payments/test-provider.server';
import { buyAgent, discountPercentFor, priceAfterDiscount } from '~/server/purchases.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const SELLER = '00000000-0000-4000-8000-000000000002'; // demo_seller, seller@demo.test
const BUYERS = {
  on: '00000000-0000-4000-8000-000000000024',
  off: '00000000-0000-4000-8000-000000000025',
  smtp: '00000000-0000-4000-8000-000000000026',
};

describe('the way product emails leave', () => {
  const embedded = { fetch, serviceRoleKey: 'service' };
  const hosted = { fetch: undefined, serviceRoleKey: 'service' };
  const smtp = { url: 'smtp://127.0.0.1:2525', from: 'Shop <orders@shop.test>' };

  it('is SMTP with SMTP_URL, from MAIL_FROM (else SMTP_FROM)', () => {
    expect(productSmtp({ SMTP_URL: smtp.url, MAIL_FROM: smtp.from, SMTP_FROM: 'auth@shop.test' })).toEqual(smtp);
    expect(productSmtp({ SMTP_URL: smtp.url, MAIL_FROM: undefined, SMTP_FROM: 'auth@shop.test' })).toEqual({
      url: smtp.url,
      from: 'auth@shop.test',
    });
    expect(productSmtp({ SMTP_URL: undefined, MAIL_FROM: smtp.from, SMTP_FROM: undefined })).toBeNull();
    expect(productMailRoute(hosted, smtp)).toBe('smtp');
    expect(productMailRoute(embedded, smtp)).toBe('smtp');
  });

  it('is the outbox embedded without SMTP, and off (one start-up line) with neither', () => {
    expect(productMailRoute(embedded, null)).toBe('outbox');
    expect(productMailNotice(embedded, null)).toBeNull();
    expect(productMailNotice(hosted, smtp)).toBeNull();
    expect(productMailRoute(hosted, null)).toBe('off');
    expect(productMailNotice(hosted, null)).toBe(
      'Product emails (purchase receipts, sale notices, message notices) are off: set SMTP_URL and MAIL_FROM to send them.',
    );
  });
});

describe.skipIf(isHostedTarget)('purchase emails', () => {
  let target: ContractTarget;
  let service: AppSupabaseClient;
  let mailer: ProductMailer;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target) as unknown as AppSupabaseClient;
    mailer = productMailer(
      { url: target.url, anonKey: target.anonKey, serviceRoleKey: target.serviceRoleKey, fetch },
      'https://shop.test',
    );
  });
  afterAll(() => target?.close());

  const outbox = (to: string) => readOutbox(target.backend!.db, { to });
  async function emailOf(userId: string) {
    const { data } = await service.from('users').select('email, username').eq('id', userId).single();
    return { username: data!.username, email: data!.email ?? '' };
  }
  async function buyOne(buyerId: string, via = mailer) {
    const owned = (await service.from('purchases').select('agent_id').eq('buyer_id', buyerId)).data!.map(
      (row) => row.agent_id,
    );
    const { data: agent } = await service
      .from('agents')
      .select('id, name, price')
      .eq('seller_id', SELLER)
      .eq('status', 'published')
      .not('id', 'in', `(${owned.join(',') || '00000000-0000-4000-8000-000000000000'})`)
      .limit(1)
      .single();
    const outcome = await buyAgent(service, testPaymentProvider, {
      buyerId,
      agentId: agent!.id,
      idempotencyKey: crypto.randomUUID(),
      shownPriceCents: priceAfterDiscount(Number(agent!.price), await discountPercentFor(service, buyerId)).amountCents,
      mailer: via,
    });
    expect(outcome).toMatchObject({ ok: true });
    return { ...agent!, purchaseId: outcome.ok ? outcome.purchaseId : '' };
  }

  it('sends the buyer a receipt and the seller a sale notice', async () => {
    const buyer = await emailOf(BUYERS.on);
    const sellerBefore = (await outbox('seller@demo.test')).length;
    const agent = await buyOne(BUYERS.on);

    const [receipt] = await outbox(buyer.email);
    expect(receipt).toMatchObject({ type: 'purchase_receipt', subject: `Your receipt for ${agent.name}`, link: '' });
    expect(receipt!.text).toContain(`Order: ${agent.purchaseId}`);
    expect(receipt!.text).toContain('https://shop.test/dashboard/collection');
    const sellerMail = await outbox('seller@demo.test');
    expect(sellerMail).toHaveLength(sellerBefore + 1);
    expect(sellerMail[0]).toMatchObject({ type: 'sale_notice', subject: `You sold ${agent.name}` });
    expect(sellerMail[0]!.text).toContain(`${buyer.username} bought ${agent.name}`);
  });

  it('sends nothing to a user who turned email notifications off', async () => {
    const buyer = await emailOf(BUYERS.off);
    await service.from('user_settings').update({ email_notifications: false }).eq('user_id', BUYERS.off);
    await service.from('user_settings').update({ email_notifications: false }).eq('user_id', SELLER);
    try {
      const sellerBefore = (await outbox('seller@demo.test')).length;
      await buyOne(BUYERS.off);
      expect(await outbox(buyer.email)).toEqual([]);
      expect(await outbox('seller@demo.test')).toHaveLength(sellerBefore);
    } finally {
      await service.from('user_settings').update({ email_notifications: true }).eq('user_id', SELLER);
    }
  });

  it('with SMTP_URL sends both through SMTP itself, from MAIL_FROM', async () => {
    const sink = await startSmtpSink();
    const from = 'AgentMarket Orders <orders@market.test>';
    try {
      const smtpMailer = productMailer(
        { url: target.url, anonKey: target.anonKey, serviceRoleKey: target.serviceRoleKey, fetch },
        'https://shop.test',
        { url: `smtp://127.0.0.1:${sink.port}`, from },
      );
      const buyer = await emailOf(BUYERS.smtp);
      const sellerBefore = (await outbox('seller@demo.test')).length;
      const agent = await buyOne(BUYERS.smtp, smtpMailer);

      expect(sink.messages).toHaveLength(2);
      const to = (address: string) => sink.messages.find((message) => message.split('\n').includes(`To: ${address}`));
      const receipt = to(buyer.email);
      expect(receipt).toMatch(/^From: AgentMarket Orders <orders@market\.test>$/m);
      expect(receipt).toMatch(new RegExp(`^Subject: Your receipt for ${agent.name}$`, 'm'));
      expect(receipt?.replace(/=\r?\n/g, '')).toContain(`Order: ${agent.purchaseId}`);
      const notice = to('seller@demo.test');
      expect(notice).toMatch(new RegExp(`^Subject: You sold ${agent.name}$`, 'm'));
      expect(notice?.replace(/=\r?\n/g, '')).toContain(`${buyer.username} bought ${agent.name}`);
      // Sent by the app, not through the Auth service's outbox.
      expect(await outbox(buyer.email)).toEqual([]);
      expect(await outbox('seller@demo.test')).toHaveLength(sellerBefore);
    } finally {
      await sink.close();
    }
  });

  it('takes product emails from the service role only', async () => {
    const post = (key: string) =>
      fetch(`${target.url}/auth/v1/admin/outbox`, {
        method: 'POST',
        headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: 'x@demo.test', subject: 'Hi', text: 'Hi', type: 'purchase_receipt' }),
      });
    expect((await post(target.anonKey)).status).toBe(403);
    const badType = await fetch(`${target.url}/auth/v1/admin/outbox`, {
      method: 'POST',
      headers: {
        apikey: target.serviceRoleKey,
        authorization: `Bearer ${target.serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ to: 'x@demo.test', subject: 'Hi', text: 'Hi', type: 'signup' }),
    });
    expect(badType.status).toBe(400);
    expect(await outbox('x@demo.test')).toEqual([]);
  });
});
