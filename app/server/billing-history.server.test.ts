/**
 * Billing's history against the embedded backend (seeded, in memory; real supabase-js clients, so
 * row-level security and `public.billing_history` apply): one read of the member's purchases and
 * subscription charges, newest first, their invoice numbers, the CSV, the invoice and its 404s.
 */
import { createHash } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import {
  DEMO_VIEWERS,
  routeAnswer,
  routeContext,
  signedInClient,
  type TestViewer,
} from '../../tests/support/route-context';
import { BILLING_HISTORY_PAGE_SIZE, invoiceTotals, type BillingRow } from '~/lib/billing-history';
import { loader as exportLoader } from '~/routes/dashboard/billing-export';
import { loader as invoiceLoader } from '~/routes/dashboard/billing-invoice';
import { allBillingHistory, billingCsv, listBillingHistory, loadInvoice } from '~/server/billing-history.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

describe('billingCsv and invoiceTotals', () => {
  const row: BillingRow = {
    id: '11111111-2222-4333-8444-555555555555',
    kind: 'purchase',
    date: '2026-11-03T23:30:00Z',
    description: '=AI agent purchase - "Quoted", agent',
    amount: 89.1,
    status: 'refunded',
    paymentMethod: 'Visa •••• 4242',
    invoiceNumber: 'AM-20261103-11111111',
  };

  it('one line per row: the day in the zone, 2 decimals, text guarded against formulas', () => {
    const lines = billingCsv([row, { ...row, kind: 'renewal', amount: 19, status: 'paid' }], 'Europe/Berlin').split(
      '\r\n',
    );
    expect(lines[0]).toBe('Date,Invoice,Kind,Description,Amount,Status,Payment Method');
    expect(lines[1]).toBe(
      `2026-11-04,AM-20261103-11111111,purchase,"'=AI agent purchase - ""Quoted"", agent",89.10,refunded,Visa •••• 4242`,
    );
    expect(lines[2]).toBe(
      `2026-11-04,AM-20261103-11111111,renewal,"'=AI agent purchase - ""Quoted"", agent",19.00,paid,Visa •••• 4242`,
    );
    expect(lines[3]).toBe('');
  });

  it('totals: list price less the discount, tax at the stated rate (0 %)', () => {
    expect(invoiceTotals({ listPrice: 99, discountAmount: 9.9, amount: 89.1 })).toEqual({
      subtotal: 99,
      discount: 9.9,
      tax: 0,
      total: 89.1,
    });
  });
});

describe.skipIf(isHostedTarget)('billing history', () => {
  let target: ContractTarget;
  const connection = () => ({ url: target.url, anonKey: target.anonKey, serviceRoleKey: target.serviceRoleKey });
  let service: SupabaseClient;
  let buyer: AppSupabaseClient;
  const buyerId = DEMO_VIEWERS.buyer.id;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target);
    buyer = (await signedInClient(target, DEMO_VIEWERS.buyer.email)) as unknown as AppSupabaseClient;
    // Two subscription charges of the demo buyer: a paid one with a card, a failed renewal without.
    const { error } = await service.from('subscription_charges').insert([
      {
        id: 'c1000000-0000-4000-8000-000000000001',
        user_id: buyerId,
        tier: 'premium',
        kind: 'subscription',
        description: 'Premium membership - monthly',
        amount: 19,
        status: 'paid',
        payment_method: 'Visa •••• 4242',
        provider: 'test',
        idempotency_key: 'billing-history-test-1',
        period_start: '2026-10-01T00:00:00Z',
        period_end: '2026-11-01T00:00:00Z',
        created_at: '2026-10-01T00:00:00Z',
      },
      {
        id: 'c1000000-0000-4000-8000-000000000002',
        user_id: buyerId,
        tier: 'premium',
        kind: 'renewal',
        description: 'Premium membership - renewal',
        amount: 19,
        status: 'failed',
        provider: 'test',
        idempotency_key: 'billing-history-test-2',
        created_at: '2026-11-01T00:00:00Z',
      },
    ]);
    expect(error).toBeNull();
  });
  afterAll(() => target?.close());

  it('holds every purchase the member made and every subscription charge, newest first', async () => {
    const rows = await allBillingHistory(buyer);
    const [purchases, charges] = await Promise.all([
      service.from('purchases').select('id, status, amount').eq('buyer_id', buyerId),
      service.from('subscription_charges').select('id').eq('user_id', buyerId),
    ]);
    expect(rows).toHaveLength(purchases.data!.length + charges.data!.length);
    expect(rows.map((row) => row.date)).toEqual(
      rows
        .map((row) => row.date)
        .toSorted()
        .reverse(),
    );

    // A purchase's status in Billing's words (completed → paid); its amount as paid.
    for (const purchase of purchases.data!) {
      const row = rows.find((candidate) => candidate.id === purchase.id)!;
      expect(row.kind).toBe('purchase');
      expect(row.status).toBe(purchase.status === 'completed' ? 'paid' : purchase.status);
      expect(row.amount).toBe(Number(purchase.amount));
      expect(row.description).toMatch(/^AI agent purchase - /);
    }
    expect(new Set(rows.map((row) => row.status))).toEqual(new Set(['paid', 'pending', 'failed', 'refunded']));

    const paid = rows.find((row) => row.id === 'c1000000-0000-4000-8000-000000000001')!;
    expect(paid).toMatchObject({ kind: 'subscription', status: 'paid', amount: 19, paymentMethod: 'Visa •••• 4242' });
    const failed = rows.find((row) => row.id === 'c1000000-0000-4000-8000-000000000002')!;
    // No payment method recorded: the provider's label.
    expect(failed).toMatchObject({ kind: 'renewal', status: 'failed', paymentMethod: 'Test mode' });
  });

  it('numbers each invoice AM-<UTC day>-<8 hex digits of the md5 of the id>, the same at every read', async () => {
    const rows = await allBillingHistory(buyer);
    for (const row of rows) {
      const day = new Date(row.date).toISOString().slice(0, 10).replaceAll('-', '');
      const hash = createHash('md5').update(row.id).digest('hex').slice(0, 8).toUpperCase();
      expect(row.invoiceNumber).toBe(`AM-${day}-${hash}`);
    }
    expect(rows.find((row) => row.id === 'c1000000-0000-4000-8000-000000000001')?.invoiceNumber).toMatch(
      /^AM-20261001-[0-9A-F]{8}$/,
    );
    expect((await allBillingHistory(buyer)).map((row) => row.invoiceNumber)).toEqual(
      rows.map((row) => row.invoiceNumber),
    );
    expect(new Set(rows.map((row) => row.invoiceNumber)).size).toBe(rows.length);
  });

  it('pages the same rows; a page past the end is the last page', async () => {
    const all = await allBillingHistory(buyer);
    const first = await listBillingHistory(buyer, 1);
    expect(first.total).toBe(all.length);
    expect(first.pageCount).toBe(Math.max(1, Math.ceil(all.length / BILLING_HISTORY_PAGE_SIZE)));
    expect(first.rows).toEqual(all.slice(0, BILLING_HISTORY_PAGE_SIZE));
    const beyond = await listBillingHistory(buyer, 99);
    expect(beyond.page).toBe(first.pageCount);
    expect(beyond.rows).toEqual(all.slice((first.pageCount - 1) * BILLING_HISTORY_PAGE_SIZE));
  });

  it('shows each member only their own: the admin, who reads every purchase, sees none of the buyer’s', async () => {
    const admin = (await signedInClient(target, DEMO_VIEWERS.admin.email)) as unknown as AppSupabaseClient;
    const theirs = await allBillingHistory(admin);
    const buyers = new Set((await allBillingHistory(buyer)).map((row) => row.id));
    expect(theirs.some((row) => buyers.has(row.id))).toBe(false);
  });

  it('loads an invoice with its seller and buyer; another member’s, a missing or a malformed id is null', async () => {
    const rows = await allBillingHistory(buyer);
    const purchase = rows.find((row) => row.kind === 'purchase' && row.status === 'paid')!;
    const invoice = (await loadInvoice(buyer, connection(), buyerId, purchase.id))!;
    expect(invoice.row.invoiceNumber).toBe(purchase.invoiceNumber);
    expect(invoice.seller?.detail).toMatch(/^@/);
    expect(invoice.buyer.detail).toBe(DEMO_VIEWERS.buyer.email);
    expect(invoice.licenseKey).toMatch(/^([0-9A-F]{4}-){7}[0-9A-F]{4}$/); // the purchase's licence key (ADR 073)
    const totals = invoiceTotals(invoice.row);
    expect(totals.subtotal - totals.discount).toBeCloseTo(purchase.amount, 2);

    const membership = (await loadInvoice(buyer, connection(), buyerId, 'c1000000-0000-4000-8000-000000000001'))!;
    expect(membership.seller).toBeNull();
    expect(membership.row.periodStart).not.toBeNull();

    const seller = (await signedInClient(target, DEMO_VIEWERS.seller.email)) as unknown as AppSupabaseClient;
    expect(await loadInvoice(seller, connection(), DEMO_VIEWERS.seller.id, purchase.id)).toBeNull(); // they sold it, still not theirs
    expect(await loadInvoice(buyer, connection(), buyerId, 'c1000000-0000-4000-8000-0000000000ff')).toBeNull();
    expect(await loadInvoice(buyer, connection(), buyerId, "1' or '1'='1")).toBeNull();
  });

  function args(path: string, viewer: TestViewer, client: AppSupabaseClient, params: Record<string, string> = {}) {
    const url = new URL(`http://localhost${path}`);
    return {
      request: new Request(url),
      context: routeContext(target, viewer, client as unknown as SupabaseClient),
      url,
      params,
      pattern: path.startsWith('/dashboard/billing/invoices') ? 'dashboard/billing/invoices/:invoiceId' : path.slice(1),
    } as never;
  }

  it('the invoice page answers 404 for another member’s invoice and a malformed id; the export a CSV', async () => {
    const own = (await allBillingHistory(buyer))[0]!;
    const invoicePathArgs = (viewer: TestViewer, client: AppSupabaseClient, id: string) =>
      args(`/dashboard/billing/invoices/${id}`, viewer, client, { invoiceId: id });
    expect((await routeAnswer(invoiceLoader(invoicePathArgs(DEMO_VIEWERS.buyer, buyer, own.id)))).status).toBe(200);
    const admin = (await signedInClient(target, DEMO_VIEWERS.admin.email)) as unknown as AppSupabaseClient;
    expect((await routeAnswer(invoiceLoader(invoicePathArgs(DEMO_VIEWERS.admin, admin, own.id)))).status).toBe(404);
    expect((await routeAnswer(invoiceLoader(invoicePathArgs(DEMO_VIEWERS.buyer, buyer, 'not-an-id')))).status).toBe(
      404,
    );

    const response = await exportLoader(args('/dashboard/billing/export', DEMO_VIEWERS.buyer, buyer));
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toMatch(/^attachment; filename="billing-history-buyer-/);
    const lines = (await response.text()).trimEnd().split('\r\n');
    expect(lines).toHaveLength((await allBillingHistory(buyer)).length + 1);
    expect(lines[1]).toContain(own.invoiceNumber);
  });
});
