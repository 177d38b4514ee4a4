/**
 * The marketplace's search through the real loader on the seeded embedded backend (ADR 062):
 * any text is results or the empty state (never a 4xx or 5xx), words in any order find the same
 * agents, "Best match" is the default order with a search, a misspelt search that finds nothing
 * offers the catalogue's spelling, and a NUL keeps the root middleware's 400.
 */
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import { connectionContext, type SupabaseConnection } from '~/context';
import { forgetCatalogue } from '~/server/agents.server';
import { checkRequestInput } from '~/server/request-input.server';
import { loader } from './marketplace';

type Page = Exclude<Awaited<ReturnType<typeof loader>>, Response | { data: unknown }>;

describe.skipIf(isHostedTarget)('the marketplace search', () => {
  let target: ContractTarget;
  let connection: SupabaseConnection;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    connection = { url: target.url, anonKey: target.anonKey };
    forgetCatalogue();
  });
  afterAll(() => target?.close());

  /** The page for `?<search>`, following the loader's canonical redirect once; or the status thrown. */
  async function open(search: string): Promise<{ status: number; page?: Page; location?: string }> {
    let url = new URL(`http://localhost/marketplace?${search}`);
    for (let hop = 0; hop < 2; hop++) {
      const request = new Request(url);
      try {
        await checkRequestInput({ request });
        const context = new RouterContextProvider();
        context.set(connectionContext, connection);
        const result = await loader({ request, context, url, params: {} } as unknown as Parameters<typeof loader>[0]);
        return { status: 200, page: result as Page };
      } catch (thrown) {
        if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
          url = new URL(thrown.headers.get('Location')!, url);
          continue;
        }
        const { init } = thrown as { init?: { status?: number } };
        if (init?.status) return { status: init.status };
        throw thrown;
      }
    }
    throw new Error(`more than one redirect for ${search}`);
  }

  const q = (text: string, more: Record<string, string> = {}) => new URLSearchParams({ q: text, ...more }).toString();

  it.each([
    `&|!():*<>'"\\%_`,
    '"unbalanced quote',
    'x'.repeat(5000),
    '🤖🚀',
    'שלום עולם',
    "'; select pg_sleep(10); --",
    'email:* | !support',
  ])('answers %j with results or the empty state', async (text) => {
    const { status, page } = await open(q(text));
    expect(status).toBe(200);
    expect(page?.error).toBeNull();
    expect(page?.result?.total).toBeGreaterThanOrEqual(0);
  });

  it('keeps the clear 400 for a NUL byte', async () => {
    expect((await open(q('email\u0000'))).status).toBe(400);
  });

  it('finds the same agents whatever the order of the words, best match first by default', async () => {
    const a = (await open(q('customer support'))).page!;
    const b = (await open(q('support customer'))).page!;
    expect(a.params.sort).toBe('relevance');
    expect(a.result!.total).toBeGreaterThan(0);
    expect(b.result!.total).toBe(a.result!.total);
    expect(new Set(b.result!.agents.map((agent) => agent.id))).toEqual(
      new Set(a.result!.agents.map((agent) => agent.id)),
    );
    // Another order keeps only the matching agents, in that order.
    const cheapest = (await open(q('customer support', { sort: 'price-low' }))).page!;
    expect(cheapest.result!.total).toBe(a.result!.total);
    const prices = cheapest.result!.agents.map((agent) => agent.price);
    expect(prices).toEqual([...prices].sort((x, y) => x - y));
  });

  it('offers the catalogue’s spelling when a search finds nothing, and nothing when it finds something', async () => {
    const misspelt = (await open(q('emal'))).page!;
    expect(misspelt.result!.total).toBe(0);
    expect(misspelt.result!.didYouMean).toBe('email');
    expect((await open(q('email'))).page!.result!.didYouMean).toBeNull();
  });
});
