/**
 * The cart and its checkout (ADR 072). A signed-in buyer's cart is `public.cart_items` (their own
 * rows, row-level security); a visitor's is a cookie of agent ids that joins the account's cart
 * on the first page after sign-in (`mergeGuestCart`, from the root loader). Checkout is one order:
 * one payment at the provider for every line, one purchase per agent, one invoice; written by the
 * service role after the route's guard, like the single Buy (app/server/purchases.server.ts), with
 * the same rules in the database (`guard_purchase`, the live-purchase index, `create_order`).
 *
 *   readCart / readGuestCart   the lines with this buyer's price and what stops a line
 *   addToCart / removeFromCart the viewer's own rows
 *   checkoutCart               the order: every line checked first (nothing charged if one is
 *                              refused), the total the buyer was shown, one payment, the same
 *                              key again is the same order
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createCookie, type MiddlewareFunction, type RouterContextProvider } from 'react-router';
import { supabaseContext, viewerContext } from '~/context';
import { z } from 'zod';
import { MAX_CART_ITEMS, type LineProblem } from '~/lib/cart';
import { formatMoney } from '~/lib/dashboard-format';
import { fromCents, toCents } from '~/lib/money';
import { refusals, type Refusal } from '~/lib/refusal';
import { cookieSecrets, isSecureRequest } from '~/server/cookies.server';
import { unwrap } from '~/server/http-errors.server';
import type { ProductMailer } from '~/server/notifications.server';
import { usernames } from '~/server/paged-lists.server';
import type { PaymentProvider } from '~/server/payments/provider.server';
import {
  applyToOrder,
  BUY_REFUSALS,
  buyerTerms,
  priceAfterDiscount,
  SAME_CONFIRMATION_WAIT_MS,
} from '~/server/purchases.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const UNAVAILABLE = 'We could not complete the checkout right now. Nothing was charged. Please try again in a moment.';
const failure = (what: string) => ({ what, unavailable: UNAVAILABLE });

export interface CartLine {
  agentId: string;
  /** Null when the agent is no longer visible (unpublished or deleted). */
  name: string | null;
  thumbnailUrl: string | null;
  sellerName: string | null;
  listPriceCents: number;
  discountCents: number;
  amountCents: number;
  problem: LineProblem | null;
}

export interface Cart {
  lines: CartLine[];
  discountPercent: number;
  listCents: number;
  discountCents: number;
  totalCents: number;
  /** The card the checkout charges ("Visa ending in 4242"); null without a saved one. */
  card: string | null;
  /** Every line can be bought (and there is one). */
  ready: boolean;
}

type AgentRecord = {
  id: string;
  name: string;
  price: number | string;
  status: string;
  seller_id: string | null;
  thumbnail_url?: string | null;
};

/** One line at the buyer's price, with its problem (own, not on sale, owned or being paid). */
function toLine(
  agentId: string,
  agent: AgentRecord | null,
  buyerId: string | null,
  live: Map<string, string>,
  discountPercent: number,
  sellerName: string | null = null,
): CartLine {
  const price = priceAfterDiscount(agent ? Number(agent.price) : 0, discountPercent);
  const liveStatus = live.get(agentId);
  const problem: LineProblem | null =
    !agent || agent.status !== 'published'
      ? 'not-on-sale'
      : buyerId && agent.seller_id === buyerId
        ? 'own'
        : liveStatus === 'completed'
          ? 'owned'
          : liveStatus === 'pending'
            ? 'pending'
            : null;
  return {
    agentId,
    name: agent?.name ?? null,
    thumbnailUrl: agent?.thumbnail_url ?? null,
    sellerName,
    listPriceCents: price.listCents,
    discountCents: price.discountCents,
    amountCents: price.amountCents,
    problem,
  };
}

function totals(lines: CartLine[], discountPercent: number, card: string | null): Cart {
  const sum = (pick: (line: CartLine) => number) =>
    lines.filter((line) => line.problem !== 'not-on-sale').reduce((total, line) => total + pick(line), 0);
  return {
    lines,
    discountPercent,
    listCents: sum((line) => line.listPriceCents),
    discountCents: sum((line) => line.discountCents),
    totalCents: sum((line) => line.amountCents),
    card,
    ready: lines.length > 0 && lines.every((line) => line.problem === null),
  };
}

/** The buyer's live (pending or completed) purchases among `agentIds`, by agent. */
async function livePurchases(client: AppSupabaseClient, buyerId: string, agentIds: string[]) {
  if (agentIds.length === 0) return new Map<string, string>();
  const rows = unwrap(
    await client
      .from('purchases')
      .select('agent_id, status')
      .eq('buyer_id', buyerId)
      .in('agent_id', agentIds)
      .in('status', ['pending', 'completed']),
    failure('purchases of the cart'),
  );
  return new Map(rows.map((row) => [row.agent_id, row.status]));
}

const LINE_AGENT = 'agents(id, name, price, status, seller_id, thumbnail_url)';

type LineRecord = { agent_id: string; agents: AgentRecord | null };

const sellerOf = (names: Map<string, string>, agent: AgentRecord | null) =>
  agent?.seller_id ? (names.get(agent.seller_id) ?? null) : null;

/** The signed-in buyer's cart, oldest line first, through their own client (row-level security). */
export async function readCart(client: AppSupabaseClient, buyerId: string): Promise<Cart> {
  const rows = unwrap(
    await client
      .from('cart_items')
      .select(`agent_id, ${LINE_AGENT}`)
      .eq('user_id', buyerId)
      .order('added_at')
      .order('agent_id')
      .overrideTypes<LineRecord[], { merge: false }>(),
    failure('cart'),
  );
  const ids = rows.map((row) => row.agent_id);
  const [live, terms, names] = await Promise.all([
    livePurchases(client, buyerId, ids),
    buyerTerms(client, buyerId),
    usernames(
      client,
      rows.map((row) => row.agents?.seller_id ?? null),
    ),
  ]);
  const lines = rows.map((row) =>
    toLine(row.agent_id, row.agents, buyerId, live, terms.discountPercent, sellerOf(names, row.agents)),
  );
  return totals(lines, terms.discountPercent, terms.method?.name ?? null);
}

/** A visitor's cart (the cookie's ids) at list prices, through the public client. */
export async function readGuestCart(client: AppSupabaseClient, agentIds: string[]): Promise<Cart> {
  const agents =
    agentIds.length === 0
      ? []
      : unwrap(
          await client.from('agents').select('id, name, price, status, seller_id, thumbnail_url').in('id', agentIds),
          failure('cart'),
        );
  const byId = new Map<string, AgentRecord>(agents.map((agent) => [agent.id, agent]));
  const names = await usernames(
    client,
    agents.map((agent) => agent.seller_id),
  );
  const lines = agentIds.map((id) => {
    const agent = byId.get(id) ?? null;
    return toLine(id, agent, null, new Map(), 0, sellerOf(names, agent));
  });
  return totals(lines, 0, null);
}

export const CART_REFUSALS = refusals({
  empty: { message: 'Your cart is empty.', status: 400 },
  full: { message: `A cart holds at most ${MAX_CART_ITEMS} agents. Check out or remove some first.`, status: 409 },
  'not-on-sale': { message: BUY_REFUSALS['not-on-sale'].message, status: 409 },
  own: { message: BUY_REFUSALS.own.message, status: 409 },
  owned: { message: BUY_REFUSALS.owned.message, status: 409 },
  lines: {
    message: 'Some agents in your cart cannot be bought. Nothing was charged. Remove them, then check out again.',
    status: 409,
  },
  changed: {
    message: 'Your cart changed while you were checking out. Nothing was charged. Please check it and try again.',
    status: 409,
  },
  'price-changed': {
    message: 'The total of your cart changed. Nothing was charged. Please check the new total.',
    status: 409,
  },
  pending: { message: 'Your payment for this order is still being processed.', status: 409 },
  declined: BUY_REFUSALS.declined,
  failed: BUY_REFUSALS.failed,
});
export type CartRefusal = keyof typeof CART_REFUSALS;

/** What the cart page answers a refusal with; a changed total names the new one and the one shown. */
export function cartRefusal(refusal: CartRefusal, shownCents?: number, totalCents?: number): Refusal {
  if (refusal !== 'price-changed' || totalCents === undefined || shownCents === undefined) {
    return CART_REFUSALS[refusal];
  }
  return {
    ...CART_REFUSALS[refusal],
    message: `The total of your cart is now ${formatMoney(fromCents(totalCents))}, not the ${formatMoney(fromCents(shownCents))} you were shown. Nothing was charged. Please check it and check out again.`,
  };
}

/** Puts a published agent of another seller in the signed-in buyer's cart (again: no change). */
export async function addToCart(
  client: AppSupabaseClient,
  buyerId: string,
  agentId: string,
): Promise<{ ok: true } | { ok: false; refusal: CartRefusal }> {
  const [agent, live] = await Promise.all([
    client
      .from('agents')
      .select('id, status, seller_id')
      .eq('id', agentId)
      .maybeSingle()
      .then((result) => unwrap(result, failure('agent'))),
    livePurchases(client, buyerId, [agentId]),
  ]);
  if (!agent || agent.status !== 'published') return { ok: false, refusal: 'not-on-sale' };
  if (agent.seller_id === buyerId) return { ok: false, refusal: 'own' };
  if (live.get(agentId) === 'completed') return { ok: false, refusal: 'owned' };
  const { error } = await client.from('cart_items').insert({ user_id: buyerId, agent_id: agentId });
  if (!error || error.code === '23505') return { ok: true };
  if (error.code === 'PT409') return { ok: false, refusal: 'full' };
  if (error.code === '42501') return { ok: false, refusal: 'not-on-sale' };
  unwrap({ data: null, error }, failure('add to cart'));
  return { ok: true };
}

export async function removeFromCart(client: AppSupabaseClient, buyerId: string, agentId: string): Promise<void> {
  unwrap(await client.from('cart_items').delete().eq('user_id', buyerId).eq('agent_id', agentId), failure('remove'));
}

// -----------------------------------------------------------------------------------------------
// A visitor's cart: a signed cookie of agent ids (signed, so that no other site on the domain can
// plant agents in it; the ids are checked again on every read).
// -----------------------------------------------------------------------------------------------

const guestCartCookie = createCookie('am_cart', {
  path: '/',
  secrets: cookieSecrets,
  httpOnly: true,
  sameSite: 'lax',
  maxAge: 60 * 60 * 24 * 30,
});

const AgentIds = z.array(z.guid()).max(MAX_CART_ITEMS);

/** The visitor's cart: the cookie's agent ids, in the order added (unreadable: empty). */
export async function guestCartIds(request: Request): Promise<string[]> {
  const parsed = AgentIds.safeParse(await guestCartCookie.parse(request.headers.get('cookie')));
  return parsed.success ? [...new Set(parsed.data.map((id) => id.toLowerCase()))] : [];
}

/** The Set-Cookie of the visitor's cart holding `ids` (none: the cookie is cleared). */
export function guestCartCookieHeader(request: Request, ids: string[]): Promise<string> {
  const secure = isSecureRequest(request);
  return ids.length === 0
    ? guestCartCookie.serialize([], { secure, maxAge: 0 })
    : guestCartCookie.serialize(ids.slice(0, MAX_CART_ITEMS), { secure });
}

/**
 * The visitor's cart joins the account's once signed in: the agents that may go in (published,
 * another seller's, not owned, while there is room) go in, in three reads and one write whatever
 * the cookie holds. Returns the Set-Cookie that clears the cookie, or null when there was none.
 */
export async function mergeGuestCart(
  client: AppSupabaseClient,
  buyerId: string,
  request: Request,
): Promise<string | null> {
  if (!hasGuestCart(request)) return null;
  const ids = await guestCartIds(request);
  if (ids.length > 0) {
    const [agents, live, count] = await Promise.all([
      client
        .from('agents')
        .select('id, status, seller_id')
        .in('id', ids)
        .then((result) => unwrap(result, failure('cart agents'))),
      livePurchases(client, buyerId, ids),
      client
        .from('cart_items')
        .select('agent_id', { count: 'exact', head: true })
        .eq('user_id', buyerId)
        .then((result) => result.count ?? 0),
    ]);
    const allowed = new Set(
      agents
        .filter(
          (agent) => agent.status === 'published' && agent.seller_id !== buyerId && live.get(agent.id) !== 'completed',
        )
        .map((agent) => agent.id),
    );
    const rows = ids
      .filter((id) => allowed.has(id))
      .slice(0, Math.max(MAX_CART_ITEMS - count, 0))
      .map((agentId) => ({ user_id: buyerId, agent_id: agentId }));
    if (rows.length > 0) {
      unwrap(
        await client.from('cart_items').upsert(rows, { onConflict: 'user_id,agent_id', ignoreDuplicates: true }),
        failure('join the cart'),
      );
    }
  }
  return guestCartCookieHeader(request, []);
}

/** How many agents are in the cart, for the header (a failed read shows none, and breaks no page). */
async function cartCount(client: AppSupabaseClient, buyerId: string): Promise<number> {
  const { count, error } = await client
    .from('cart_items')
    .select('agent_id', { count: 'exact', head: true })
    .eq('user_id', buyerId);
  return error ? 0 : (count ?? 0);
}

/**
 * The header's count of a signed-in buyer's cart, kept in a cookie as `<user id>:<count>` so that
 * a page does not ask the database for it: read once, then again only after this app changed the
 * cart (`forgetCartCount`) or for another user. A change made elsewhere (another device) shows on
 * the cart page at once and in the header when the cookie is renewed (a day at most).
 */
const cartCountCookie = createCookie('am_cart_n', {
  path: '/',
  httpOnly: true,
  sameSite: 'lax',
  secrets: cookieSecrets,
  maxAge: 60 * 60 * 24,
});

/** The Set-Cookie that makes the next page count the cart again (after a change to it). */
export function forgetCartCount(request: Request): Promise<string> {
  return cartCountCookie.serialize('', { secure: isSecureRequest(request), maxAge: 0 });
}

/** The header's cart: how many agents are in it (a visitor's: the cookie's), and a cookie to set. */
export async function headerCart(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ count: number; setCookie: string | null }> {
  const viewer = context.get(viewerContext);
  if (!viewer) return { count: (await guestCartIds(request)).length, setCookie: null };
  const kept: unknown = await cartCountCookie.parse(request.headers.get('cookie'));
  const match = typeof kept === 'string' ? /^([0-9a-f-]{36}):([0-9]{1,3})$/.exec(kept) : null;
  if (match && match[1] === viewer.id) return { count: Number(match[2]), setCookie: null };
  const count = await cartCount(context.get(supabaseContext), viewer.id);
  return {
    count,
    setCookie: await cartCountCookie.serialize(`${viewer.id}:${count}`, { secure: isSecureRequest(request) }),
  };
}

/**
 * The root's middleware: a signed-in buyer with a visitor's cart still in the cookie (the first
 * request after sign-in, whichever way they signed in) gets it joined to their cart before any
 * loader or action reads it, and the cookie cleared.
 */
export const guestCartMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const viewer = context.get(viewerContext);
  if (!viewer || !hasGuestCart(request)) return next();
  // Cleared even when the join fails: a cookie that cannot be joined is not retried on every page.
  const clear = await mergeGuestCart(context.get(supabaseContext), viewer.id, request).catch((error: unknown) => {
    console.error('The visitor’s cart could not be joined:', error);
    return guestCartCookieHeader(request, []);
  });
  const response = await next();
  if (clear) {
    response.headers.append('Set-Cookie', clear);
    response.headers.append('Set-Cookie', await forgetCartCount(request));
  }
  return response;
};

const hasGuestCart = (request: Request) => /(?:^|;\s*)am_cart=/.test(request.headers.get('cookie') ?? '');

// -----------------------------------------------------------------------------------------------
// Checkout
// -----------------------------------------------------------------------------------------------

export type CheckoutOutcome =
  | { ok: true; orderId: string; count: number; amountCents: number; replayed: boolean }
  | { ok: false; refusal: CartRefusal; lines?: Record<string, LineProblem>; totalCents?: number };

const ORDER_COLUMNS = 'id, status, amount, payment_intent_id' as const;

/** The order this buyer's checkout with this key made, whatever became of it. */
async function orderOfKey(service: AppSupabaseClient, buyerId: string, idempotencyKey: string) {
  return unwrap(
    await service
      .from('orders')
      .select(ORDER_COLUMNS)
      .eq('buyer_id', buyerId)
      .eq('idempotency_key', idempotencyKey)
      .maybeSingle(),
    failure('existing order'),
  );
}

type OrderRow = NonNullable<Awaited<ReturnType<typeof orderOfKey>>>;

async function lineCount(service: AppSupabaseClient, orderId: string) {
  const { count } = await service
    .from('purchases')
    .select('id', { count: 'exact', head: true })
    .eq('order_id', orderId);
  return count ?? 0;
}

/**
 * The same checkout again (its key): what the first request reached, waited for while its payment
 * is under way (a double submit, twenty at once), so that every request answers alike and nothing
 * is charged twice.
 */
async function replayOrder(service: AppSupabaseClient, row: OrderRow): Promise<CheckoutOutcome> {
  const deadline = Date.now() + SAME_CONFIRMATION_WAIT_MS;
  let current = row;
  for (let pause = 50; current.status === 'pending' && Date.now() < deadline; pause = Math.min(pause * 2, 500)) {
    await sleep(Math.min(pause, Math.max(deadline - Date.now(), 0)));
    current = unwrap(
      await service.from('orders').select(ORDER_COLUMNS).eq('id', row.id).single(),
      failure('order status'),
    );
  }
  if (current.status === 'completed') {
    return {
      ok: true,
      orderId: current.id,
      count: await lineCount(service, current.id),
      amountCents: toCents(Number(current.amount)),
      replayed: true,
    };
  }
  if (current.status === 'pending') return { ok: false, refusal: 'pending' };
  return { ok: false, refusal: current.payment_intent_id ? 'declined' : 'failed' };
}

/**
 * Checks out the buyer's whole cart as one order. The caller has checked sign-in, `place_orders`
 * and the policies; the rest is decided here and in the database.
 */
export async function checkoutCart(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  {
    buyerId,
    idempotencyKey,
    shownTotalCents,
    shownLines,
    mailer,
  }: {
    buyerId: string;
    idempotencyKey: string;
    shownTotalCents: number;
    /** Each line as the cart page showed it: agent id → amount in cents. */
    shownLines: ReadonlyMap<string, number>;
    mailer?: ProductMailer;
  },
): Promise<CheckoutOutcome> {
  const existing = await orderOfKey(service, buyerId, idempotencyKey);
  if (existing) return replayOrder(service, existing);

  const items = unwrap(
    await service
      .from('cart_items')
      .select('agent_id, agents(id, name, price, status, seller_id)')
      .eq('user_id', buyerId)
      .order('added_at')
      .order('agent_id'),
    failure('cart'),
  );
  // A refusal is checked against the same checkout finishing meanwhile (twenty at once: the first
  // may have bought the cart and emptied it while this one read it).
  const refuse = async (outcome: Extract<CheckoutOutcome, { ok: false }>): Promise<CheckoutOutcome> => {
    const same = await orderOfKey(service, buyerId, idempotencyKey);
    return same ? replayOrder(service, same) : outcome;
  };
  if (items.length === 0) return refuse({ ok: false, refusal: 'empty' });
  const ids = items.map((item) => item.agent_id);
  const [live, terms] = await Promise.all([livePurchases(service, buyerId, ids), buyerTerms(service, buyerId)]);
  const lines = items.map((item) => toLine(item.agent_id, item.agents, buyerId, live, terms.discountPercent));
  const problems = Object.fromEntries(
    lines.flatMap((line) => (line.problem ? [[line.agentId, line.problem] as const] : [])),
  );
  if (Object.keys(problems).length > 0) return refuse({ ok: false, refusal: 'lines', lines: problems });
  const cart = totals(lines, terms.discountPercent, terms.method?.name ?? null);
  // The buyer agrees to the lines they were shown, each at its price, not only to their sum.
  if (lines.length !== shownLines.size || lines.some((line) => !shownLines.has(line.agentId))) {
    return refuse({ ok: false, refusal: 'changed' });
  }
  if (cart.totalCents !== shownTotalCents || lines.some((line) => shownLines.get(line.agentId) !== line.amountCents)) {
    return refuse({ ok: false, refusal: 'price-changed', totalCents: cart.totalCents });
  }

  const placed = await service.rpc('create_order', {
    buyer: buyerId,
    order_key: idempotencyKey,
    order_provider: provider.id,
    order_method: terms.method?.label ?? '',
    order_discount_percent: terms.discountPercent,
    lines: lines.map((line) => ({
      agent_id: line.agentId,
      list_price: fromCents(line.listPriceCents),
      discount_amount: fromCents(line.discountCents),
      amount: fromCents(line.amountCents),
    })),
  });
  if (placed.error) {
    // The same checkout got there first (its key), or the cart changed under it: an agent bought
    // meanwhile (the live-purchase index), unpublished or repriced (guard_purchase).
    if (placed.error.code === '23505') {
      return refuse({ ok: false, refusal: 'changed' });
    }
    if (placed.error.code === 'PT409' || placed.error.code === '22023')
      return refuse({ ok: false, refusal: 'changed' });
    unwrap(placed, failure('order'));
  }
  const orderId = placed.data!;
  const names = lines.length === 1 ? '1 agent' : `${lines.length} agents`;

  let payment;
  try {
    payment = await provider.createPayment({
      purchaseId: orderId,
      buyerId,
      amountCents: cart.totalCents,
      currency: 'usd',
      description: `AgentMarket order: ${names}`,
      idempotencyKey,
      paymentMethodId: terms.method?.id ?? null,
    });
  } catch (error) {
    console.error('Payment could not be created:', error);
    await applyToOrder(service, orderId, provider, {
      eventId: `local_failed_${orderId}`,
      paymentIntentId: '',
      outcome: 'failed',
      reason: 'The payment could not be started.',
    });
    return { ok: false, refusal: 'failed' };
  }
  // Each purchase carries the payment too: a refund is of one purchase, its share of the payment.
  await Promise.all([
    service.from('orders').update({ payment_intent_id: payment.paymentIntentId }).eq('id', orderId),
    service.from('purchases').update({ payment_intent_id: payment.paymentIntentId }).eq('order_id', orderId),
  ]).then((results) => results.forEach((result) => unwrap(result, failure('payment reference'))));
  if (payment.settled) await applyToOrder(service, orderId, provider, payment.settled, { mailer });

  const status = unwrap(
    await service.from('orders').select('status').eq('id', orderId).single(),
    failure('order status'),
  ).status;
  if (status === 'failed') return { ok: false, refusal: payment.settled?.outcome === 'failed' ? 'declined' : 'failed' };
  if (status === 'pending') return { ok: false, refusal: 'pending' };
  // Bought: out of the cart (a declined card keeps it).
  unwrap(await service.from('cart_items').delete().eq('user_id', buyerId).in('agent_id', ids), failure('cart'));
  return { ok: true, orderId, count: lines.length, amountCents: cart.totalCents, replayed: false };
}
