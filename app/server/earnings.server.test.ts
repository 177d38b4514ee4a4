/**
 * A seller's earnings and the CSV export against the embedded backend (seeded, in memory; real
 * supabase-js clients, so row-level security and `public.seller_earnings` apply).
 */
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
import { platformFee } from '~/lib/fees';
import { totalOf } from '~/lib/money';
import { loader as exportLoader } from '~/routes/dashboard/earnings-export';
import { earningsCsv, listEarningsRows, loadEarnings, type EarningsCsvRow } from '~/server/earnings.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const NOVA: TestViewer = { id: '00000000-0000-4000-8000-000000000011', email: 'nova.labs@demo.test', role: 'seller' };

describe('earningsCsv', () => {
  const row: EarningsCsvRow = {
    createdAt: '2026-11-03T23:30:00Z',
    agentName: '=HYPERLINK("http://evil.example")',
    buyerUsername: '@buyer',
    listPrice: 49,
    discount: 4.9,
    amount: 44.1,
    feePercent: 10,
    status: 'completed',
  };

  it('one line per purchase: date in the zone, money with two decimals, fee and net of kept sales', () => {
    const csv = earningsCsv([row, { ...row, agentName: 'Plain, "quoted"', status: 'refunded' }], 'Europe/Berlin');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Date,Agent,Buyer,List price,Discount,Amount,Platform fee,Net,Status');
    expect(lines[1]).toBe(
      `2026-11-04,"'=HYPERLINK(""http://evil.example"")",'@buyer,49.00,4.90,44.10,4.41,39.69,completed`,
    );
    expect(lines[2]).toBe(`2026-11-04,"Plain, ""quoted""",'@buyer,49.00,4.90,44.10,0.00,0.00,refunded`);
    expect(lines[3]).toBe('');
  });
});

describe.skipIf(isHostedTarget)('earnings', () => {
  let target: ContractTarget;
  let service: SupabaseClient;
  let seller: AppSupabaseClient;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target);
    seller = (await signedInClient(target, DEMO_VIEWERS.seller.email)) as unknown as AppSupabaseClient;
  });
  afterAll(() => target?.close());

  async function ownSales(sellerId: string) {
    const { data } = await service
      .from('purchases')
      .select('amount, status, platform_fee_percent')
      .eq('seller_id', sellerId);
    const rows = (status: string) => data!.filter((row) => row.status === status);
    const amounts = (status: string) => rows(status).map((row) => Number(row.amount));
    const completed = amounts('completed');
    // Each sale at the fee in force when it was bought.
    const fee = totalOf(
      rows('completed').map((row) => platformFee(Number(row.amount), Number(row.platform_fee_percent))),
    );
    const gross = totalOf([...completed, ...amounts('refunded')]);
    const refunds = totalOf(amounts('refunded'));
    return { gross, refunds, fee, net: totalOf([gross, -refunds, -fee]), count: completed.length };
  }

  it('sums the seller’s own sales: gross, refunds, the fee at the one rate, net; per agent and month add up', async () => {
    const earnings = await loadEarnings(seller, 'UTC');
    const expected = await ownSales(DEMO_VIEWERS.seller.id);
    const { data: settings } = await service.from('platform_settings').select('platform_fee_percent').single();
    expect(earnings.feePercent).toBe(Number(settings!.platform_fee_percent));
    expect(earnings.total.gross).toBeCloseTo(expected.gross, 2);
    expect(earnings.total.refunds).toBeCloseTo(expected.refunds, 2);
    expect(earnings.total.fee).toBeCloseTo(expected.fee, 2);
    expect(earnings.total.net).toBeCloseTo(expected.net, 2);
    expect(earnings.total.net).toBeCloseTo(earnings.total.gross - earnings.total.refunds - earnings.total.fee, 2);
    for (const parts of [earnings.agents, earnings.months]) {
      expect(totalOf(parts.map((part) => part.gross))).toBeCloseTo(earnings.total.gross, 2);
      expect(totalOf(parts.map((part) => part.net))).toBeCloseTo(earnings.total.net, 2);
      expect(parts.reduce((sum, part) => sum + part.salesCount, 0)).toBe(earnings.total.salesCount);
    }
    expect(earnings.agents.some((agent) => agent.agentName === 'CampaignPilot')).toBe(true);
    expect(earnings.months.map((month) => month.month)).toEqual(
      earnings.months
        .map((m) => m.month)
        .toSorted()
        .reverse(),
    );
  });

  it('gives another seller only their own figures, a buyer none, and survives an unknown time zone', async () => {
    const nova = (await signedInClient(target, NOVA.email)) as unknown as AppSupabaseClient;
    const novaEarnings = await loadEarnings(nova, 'Not/AZone');
    expect(novaEarnings.total.gross).toBeCloseTo((await ownSales(NOVA.id)).gross, 2);
    expect(novaEarnings.agents.some((agent) => agent.agentName === 'CampaignPilot')).toBe(false);
    const buyer = (await signedInClient(target, DEMO_VIEWERS.buyer.email)) as unknown as AppSupabaseClient;
    expect((await loadEarnings(buyer, 'UTC')).total).toEqual({
      salesCount: 0,
      gross: 0,
      refundCount: 0,
      refunds: 0,
      fee: 0,
      net: 0,
    });
    // The admin reads every purchase, but the figures are their own sales only.
    const admin = (await signedInClient(target, DEMO_VIEWERS.admin.email)) as unknown as AppSupabaseClient;
    expect((await loadEarnings(admin, 'UTC')).total.salesCount).toBe(0);
  });

  it('exports one row per purchase whose Net column adds up to net earnings', async () => {
    const rows = await listEarningsRows(seller, DEMO_VIEWERS.seller.id);
    const { count } = await service
      .from('purchases')
      .select('id', { count: 'exact', head: true })
      .eq('seller_id', DEMO_VIEWERS.seller.id);
    expect(rows).toHaveLength(count!);
    expect(rows.some((row) => row.agentName === 'CampaignPilot' && row.buyerUsername === 'demo_buyer')).toBe(true);
    const lines = earningsCsv(rows, 'UTC').trimEnd().split('\r\n').slice(1);
    const net = totalOf(lines.map((line) => Number(line.split(',').at(-2))));
    expect(net).toBeCloseTo((await loadEarnings(seller, 'UTC')).total.net, 2);
  });

  function exportArgs(viewer: TestViewer, client: SupabaseClient) {
    const url = new URL('http://localhost/dashboard/earnings/export');
    return {
      request: new Request(url),
      context: routeContext(target, viewer, client),
      url,
      params: {},
      pattern: 'dashboard/earnings/export',
    } as never;
  }

  it('the export route answers a CSV attachment to the seller and 403 to a buyer', async () => {
    const response = await exportLoader(exportArgs(DEMO_VIEWERS.seller, seller as unknown as SupabaseClient));
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="earnings-seller-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(await response.text()).toMatch(/^Date,Agent,Buyer,List price,Discount,Amount,Platform fee,Net,Status\r\n/);

    const buyer = await signedInClient(target, DEMO_VIEWERS.buyer.email);
    expect((await routeAnswer(exportLoader(exportArgs(DEMO_VIEWERS.buyer, buyer)))).status).toBe(403);
  });
});
