/**
 * /agent/:agentId/checkout: the order summary, a dialog over the agent page (a child route of
 * routes/agent.tsx; ADR 061). Its GET states what buying would charge (the agent, its version, the
 * price after the member's discount, the card, the licence); its POST, Confirm purchase, is the only
 * way to buy, and charges only the price the summary showed. Without JavaScript the dialog is the
 * page, under the site's header (the agent page not drawn); with it, a modal that Escape closes.
 */
import type { ReactNode } from 'react';
import { data, href, useParams, type ShouldRevalidateFunctionArgs } from 'react-router';
import { BUY_NOW_ID } from '~/components/agents/agent-purchase-panel';
import { OrderSummary } from '~/components/agents/order-summary';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { UrlDialog } from '~/components/ui/url-dialog';
import { connectionContext, supabaseContext } from '~/context';
import { agentCallToAction } from '~/lib/agent-detail';
import { errorMeta, pageMeta } from '~/lib/meta';
import { shownPriceValue } from '~/lib/shown-price';
import {
  agentNotFound,
  BuySchema,
  getVisibleAgent,
  livePurchaseStatus,
  parseAgentId,
} from '~/server/agent-detail.server';
import { appOrigin } from '~/server/auth.server';
import { redirectWithFlash } from '~/server/cookies.server';
import { failIfInjected } from '~/server/faults.server';
import { formError, parseForm } from '~/server/forms.server';
import { requirePermission } from '~/server/guards.server';
import { requireAcceptedPolicies } from '~/server/policies.server';
import { BEFORE_PURCHASE } from '~/lib/policies';
import { productMailer } from '~/server/notifications.server';
import { paymentProvider } from '~/server/payments/index.server';
import { BUY_REFUSALS, buyAgent, buyRefusal, quotePurchase, type BuyRefusal } from '~/server/purchases.server';
import { createServiceSupabase } from '~/server/supabase.server';
import type { Route } from './+types/agent-checkout';

/**
 * Sign-in (and back here) and `place_orders` first; an agent this viewer may not see is the 404.
 * Something to buy: the order (a 200); the version it names is the agent page's, whose loader reads
 * the changelog (it runs with this one, or ran before the dialog opened). Nothing to buy: why, with
 * the refusal's status (409), as the confirmation would answer; an owner gets the way to download it.
 */
export async function loader(args: Route.LoaderArgs) {
  const viewer = requirePermission(args, 'place_orders');
  const agentId = parseAgentId(args.params.agentId);
  // A newer Terms or Privacy Policy is accepted before a purchase (ADR 069).
  await requireAcceptedPolicies(args.context, BEFORE_PURCHASE, `${args.url.pathname}${args.url.search}`);
  const client = args.context.get(supabaseContext);
  const [agent, purchase] = await Promise.all([
    getVisibleAgent(client, agentId),
    livePurchaseStatus(client, viewer.id, agentId),
  ]);
  if (!agent) agentNotFound();
  const cta = agentCallToAction({
    viewerId: viewer.id,
    canPlaceOrders: true,
    sellerId: agent.sellerId,
    status: agent.status,
    owned: purchase === 'completed',
    pending: purchase === 'pending',
  });
  const summary = { agent: { id: agent.id, name: agent.name }, owned: cta === 'owned' };
  if (cta !== 'buy') {
    const key: BuyRefusal =
      cta === 'edit' ? 'own' : cta === 'owned' ? 'owned' : cta === 'pending' ? 'pending' : 'not-on-sale';
    const refusal = BUY_REFUSALS[key];
    return data({ ...summary, refusal: refusal.message, order: null }, { status: refusal.status });
  }
  // The version shown is the agent page's (its loader reads the changelog, this one does not).
  const quote = await quotePurchase(client, viewer.id, agent);
  return data({
    ...summary,
    refusal: null,
    order: {
      ...quote,
      testMode: paymentProvider().testMode,
      price: shownPriceValue(quote.amountCents),
      idempotencyKey: crypto.randomUUID(),
    },
  });
}

/**
 * Confirm purchase. The same guards as the summary. The price comes from the database, is charged
 * only when it is the price the form says the summary showed, and the purchase is written by trusted
 * server code (app/server/purchases.server.ts); a refusal is a message in the summary (a changed
 * price names the new one), a purchase a redirect to the agent page with the confirmation.
 */
export async function action(args: Route.ActionArgs) {
  const viewer = requirePermission(args, 'place_orders');
  const agentId = parseAgentId(args.params.agentId);
  await requireAcceptedPolicies(args.context, BEFORE_PURCHASE, `${args.url.pathname}${args.url.search}`);
  const submission = parseForm(await args.request.formData(), BuySchema);
  if (submission.status !== 'success') return formError(submission);

  failIfInjected(args.request, 'purchase');
  const agent = await getVisibleAgent(args.context.get(supabaseContext), agentId);
  if (!agent) agentNotFound();
  const outcome = await buyAgent(createServiceSupabase(args.context.get(connectionContext)), paymentProvider(), {
    buyerId: viewer.id,
    agentId,
    idempotencyKey: submission.value.idempotencyKey,
    shownPriceCents: submission.value.price,
    mailer: productMailer(args.context.get(connectionContext), appOrigin(args.request)),
  });
  if (!outcome.ok) {
    return formError(submission, buyRefusal(outcome, submission.value.price));
  }
  const message = `Purchase complete! ${agent.name} is now in your collection.`;
  return redirectWithFlash(args.request, href('/agent/:agentId', { agentId }), { kind: 'success', message });
}

/**
 * A refused or expired confirmation (4xx: the price changed, a declined card, an old form) reloads
 * the summary, so it states the current figures with a new key next to the message, with
 * JavaScript as without (React Router keeps the data after a 4xx by default).
 */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return (actionStatus !== undefined && actionStatus >= 400 && actionStatus < 500) || defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  errorMeta(error) ??
  pageMeta(
    loaderData ? `Order summary: ${loaderData.agent.name}` : 'Order summary',
    'Check the price, the payment method and the licence, then confirm your purchase.',
  );

/** The dialog, over the agent page; closing it goes back to that page and to its Buy now link. */
function CheckoutDialog({ agentId, children }: { agentId: string; children: ReactNode }) {
  return (
    <UrlDialog
      title="Order summary"
      titleId="order-summary-title"
      closeHref={href('/agent/:agentId', { agentId })}
      returnFocusId={BUY_NOW_ID}
      width="max-w-lg"
      withoutScript="page"
    >
      {children}
    </UrlDialog>
  );
}

export default function AgentCheckout({ loaderData, actionData, matches }: Route.ComponentProps) {
  // The agent's current version, from the agent page's changelog behind the dialog.
  const version = matches[1].data.changelog[0]?.version ?? null;
  return (
    <CheckoutDialog agentId={loaderData.agent.id}>
      <OrderSummary {...loaderData} version={version} result={actionData} />
    </CheckoutDialog>
  );
}

/** A failed summary or confirmation (a 503, Access Denied): the error screen, in the dialog. */
export function ErrorBoundary() {
  const { agentId = '' } = useParams();
  return (
    <CheckoutDialog agentId={agentId}>
      <GeneralErrorBoundary />
    </CheckoutDialog>
  );
}
