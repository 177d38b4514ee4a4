/**
 * The seller API's sales and earnings (ADR 074), read through the caller's own client: row-level
 * security gives a seller only the sales of their agents, as on Earnings.
 */
import type { z } from 'zod';
import type { PageQuery } from '~/schemas/api';
import type { ApiCaller } from '~/server/api/auth.server';
import { pageAfter, pageRows } from '~/server/api/pages.server';
import { apiJson } from '~/server/api/responses.server';
import { loadEarnings, type EarningsFigures } from '~/server/earnings.server';

type SaleRecord = {
  id: string;
  agent_id: string;
  amount: number;
  status: string;
  created_at: string;
  agents: { name: string } | null;
};

export async function listOwnSales(caller: ApiCaller, query: z.infer<typeof PageQuery>) {
  const rows = await pageRows<SaleRecord>(query, (after) =>
    pageAfter(
      caller.client
        .from('purchases')
        .select('id, agent_id, amount, status, created_at, agents(name)')
        .eq('seller_id', caller.userId),
      after,
      query.limit,
    ).overrideTypes<SaleRecord[], { merge: false }>(),
  );
  if (rows instanceof Response) return rows;
  return apiJson({
    data: rows.data.map((row) => ({
      id: row.id,
      agent_id: row.agent_id,
      agent_name: row.agents?.name ?? null,
      amount: Number(row.amount),
      status: row.status,
      created_at: row.created_at,
    })),
    next_cursor: rows.nextCursor,
  });
}

const figures = (row: EarningsFigures) => ({
  sales_count: row.salesCount,
  gross: row.gross,
  refund_count: row.refundCount,
  refunds: row.refunds,
  fee: row.fee,
  net: row.net,
});

export async function ownEarnings(caller: ApiCaller) {
  const earnings = await loadEarnings(caller.client, 'UTC');
  return apiJson({
    fee_percent: earnings.feePercent,
    total: figures(earnings.total),
    agents: earnings.agents.map((agent) => ({
      agent_id: agent.agentId,
      agent_name: agent.agentName,
      ...figures(agent),
    })),
  });
}
