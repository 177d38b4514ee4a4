/**
 * `GET /search/suggestions?q=…`: the search boxes' suggestions (ADR 063) from the seeded
 * catalogue, through the real route loader and `public.search_suggestions` on the embedded
 * backend, behind the root middleware's input check as in the app.
 */
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../../tests/support/contract-target';
import { connectionContext, type SupabaseConnection } from '~/context';
import { MAX_SEARCH_LENGTH } from '~/lib/marketplace-params';
import type { Suggestion, SuggestionsAnswer } from '~/lib/search-suggestions';
import { forgetCatalogue } from '~/server/agents.server';
import { INVALID_TEXT_MESSAGE, checkRequestInput } from '~/server/request-input.server';
import { loader } from './search-suggestions';

describe.skipIf(isHostedTarget)('GET /search/suggestions', () => {
  let target: ContractTarget;
  let connection: SupabaseConnection;
  /** A backend whose every answer is a database error (a key of its own: clients are kept per key). */
  const failing: SupabaseConnection = {
    url: 'http://127.0.0.1:9',
    anonKey: 'search-suggestions-failing-backend',
    fetch: async () => Response.json({ code: 'XX000', message: 'the database is down' }, { status: 500 }),
  };

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    connection = { url: target.url, anonKey: target.anonKey };
    forgetCatalogue(); // reads shared by an earlier file of this worker were another database's
  });
  afterAll(() => target?.close());

  /** The response to `GET /search/suggestions?<search>`: the root middleware's check, then the loader. */
  async function get(search: string, backend = connection): Promise<Response> {
    const url = new URL(`http://localhost/search/suggestions?${search}`);
    const request = new Request(url);
    try {
      await checkRequestInput({ request });
      const context = new RouterContextProvider();
      context.set(connectionContext, backend);
      return await loader({ request, context, url, params: {} } as unknown as Parameters<typeof loader>[0]);
    } catch (thrown) {
      const { data, init } = thrown as { data?: unknown; init?: { status?: number } };
      if (!init?.status) throw thrown;
      return Response.json(data, { status: init.status });
    }
  }

  async function suggestionsFor(q: string): Promise<SuggestionsAnswer> {
    const response = await get(new URLSearchParams({ q }).toString());
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    return (await response.json()) as SuggestionsAnswer;
  }

  const ofKind = (answer: SuggestionsAnswer, kind: Suggestion['kind']) =>
    answer.suggestions.filter((suggestion) => suggestion.kind === kind);

  // A creator by the start of their name as cards name them (the storefront); a category (the
  // marketplace in it), the text read as the marketplace reads it.
  const found: [typed: string, suggestion: Suggestion][] = [
    [
      'quill',
      {
        kind: 'creator',
        label: 'Quillworks Studio',
        value: 'quillworks',
        detail: 'quillworks',
        href: '/sellers/quillworks',
      },
    ],
    [
      '  cust ',
      {
        kind: 'category',
        label: 'Customer Support',
        value: 'customer support',
        detail: null,
        href: '/marketplace?category=customer+support',
      },
    ],
  ];
  for (const [typed, suggestion] of found) {
    it(`suggests the ${suggestion.kind} ${suggestion.label} for '${typed}', with where it leads`, async () => {
      const answer = await suggestionsFor(typed);
      expect(answer.query).toBe(typed.trim());
      expect(ofKind(answer, suggestion.kind)).toContainEqual(suggestion);
    });
  }

  it('suggests an agent by the start of a word of its name, with its category and page', async () => {
    const answer = await suggestionsFor('podc');
    const podcast = ofKind(answer, 'agent').find((suggestion) => suggestion.label === 'Podcast Producer');
    expect(podcast).toMatchObject({ detail: 'Content Creation', href: `/agent/${podcast?.value}` });
    const { rows } = await target.backend!.db.query<{ id: string }>(
      `select id from public.agents where name = 'Podcast Producer' and status = 'published'`,
    );
    expect(podcast?.value).toBe(rows[0]!.id);
    // Agents first, then categories, then creators; at most five of each.
    const kinds = answer.suggestions.map((suggestion) => suggestion.kind);
    expect(kinds).toEqual([...kinds].sort());
    for (const kind of ['agent', 'category', 'creator'] as const)
      expect(ofKind(answer, kind).length).toBeLessThanOrEqual(5);
  });

  it('answers nothing for fewer than two characters, without asking the database', async () => {
    // A database call would be a 503.
    for (const search of ['q=p', 'q=%20%20p%20', 'q=', '']) {
      const response = await get(search, failing);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ query: search.includes('p') ? 'p' : '', suggestions: [] });
    }
  });

  it('may be kept by the browser for a short while, never by a shared cache', async () => {
    const response = await get('q=podc');
    expect(response.headers.get('Cache-Control')).toBe('private, max-age=30');
  });

  it('answers odd input with suggestions or none, never an error', async () => {
    const odd = [
      `&|!():*<>'"\\%_`,
      "'; drop table agents; --",
      'podcast:* & !writer',
      'x'.repeat(5_000),
      `a${'🤖'.repeat(60)}`, // cut at the length limit inside an emoji
      '🤖 podcast',
      'סוכן שיווק',
      'Ünïcödé résumé',
      '\u202Eevil',
    ];
    for (const q of odd) {
      const answer = await suggestionsFor(q);
      // Trimmed and cut to the marketplace's length, never inside a character.
      expect(q.trim().startsWith(answer.query)).toBe(true);
      expect(answer.query.length).toBeLessThanOrEqual(MAX_SEARCH_LENGTH);
      expect(answer.query.length).toBeGreaterThanOrEqual(Math.min(q.trim().length, MAX_SEARCH_LENGTH) - 1);
      expect(() => encodeURIComponent(answer.query)).not.toThrow();
      expect(Array.isArray(answer.suggestions)).toBe(true);
    }
    expect(ofKind(await suggestionsFor('🤖 podcast'), 'agent').map((s) => s.label)).toContain('Podcast Producer');
  });

  it('refuses a NUL character with the app’s 400', async () => {
    for (const search of ['q=%00', 'q=pod%00cast']) {
      const response = await get(search);
      expect(response.status).toBe(400);
      expect(await response.json()).toBe(INVALID_TEXT_MESSAGE);
    }
  });

  it('answers a failed read with a 503 and a JSON message', async () => {
    const response = await get('q=unreadable', failing);
    expect(response.status).toBe(503);
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    expect(await response.json()).toEqual({
      error: 'We could not load the catalogue right now. Please try again in a moment.',
    });
  });
});
