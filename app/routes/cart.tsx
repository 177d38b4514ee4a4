/**
 * /cart (ADR 072): the agents a buyer put in their cart, each at their price (the membership
 * discount per line), the total, and Check out: one payment, one purchase per agent, one invoice.
 * A line that cannot be bought (owned, no longer on sale, their own) says why and stops the
 * checkout until it is removed; nothing is charged. A visitor's cart lives in a cookie and joins
 * their account's when they sign in to check out. Every form is a POST and a redirect, with or
 * without JavaScript.
 */
import { FlaskConical, ShoppingCart, Trash2 } from 'lucide-react';
import { Form, Link, useNavigation } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { EmptyState } from '~/components/page-states';
import { buttonClass } from '~/components/ui/button';
import { FormMessage } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { TEST_MODE_NOTE } from '~/components/agents/agent-purchase-panel';
import { connectionContext, supabaseContext, viewerContext } from '~/context';
import { signInHref } from '~/lib/auth-modal';
import { formatMoney } from '~/lib/dashboard-format';
import { formNotice } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import { fromCents } from '~/lib/money';
import { LINE_PROBLEMS, MAX_CART_ITEMS } from '~/lib/cart';
import { BEFORE_PURCHASE } from '~/lib/policies';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { shownPriceValue } from '~/lib/shown-price';
import { useStoredImage } from '~/lib/use-stored-image';
import { CartActionSchema } from '~/schemas/cart';
import { appOrigin } from '~/server/auth.server';
import {
  addToCart,
  CART_REFUSALS,
  cartRefusal,
  checkoutCart,
  forgetCartCount,
  guestCartCookieHeader,
  guestCartIds,
  readCart,
  readGuestCart,
  removeFromCart,
  type CartLine,
} from '~/server/cart.server';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requirePermission } from '~/server/guards.server';
import { unavailableMessage } from '~/server/http-errors.server';
import { productMailer } from '~/server/notifications.server';
import { paymentProvider } from '~/server/payments/index.server';
import { requireAcceptedPolicies } from '~/server/policies.server';
import { createServiceSupabase, publicSupabase } from '~/server/supabase.server';
import type { Route } from './+types/cart';

const CART_PATH = '/cart';

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const cart = viewer
    ? await readCart(context.get(supabaseContext), viewer.id)
    : await readGuestCart(publicSupabase(context.get(connectionContext)), await guestCartIds(request));
  return {
    cart,
    signedIn: Boolean(viewer),
    // A new key for each showing of the cart: the same submission twice is the same order.
    idempotencyKey: crypto.randomUUID(),
    testMode: paymentProvider().testMode,
    signInHref: signInHref({ returnTo: CART_PATH }),
  };
}

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const viewer = context.get(viewerContext);
  const submission = parseForm(await request.formData(), CartActionSchema);
  if (submission.status !== 'success') return formError(submission);
  const change = submission.value;
  try {
    if (change.intent === 'add') {
      const back = safeRedirectPath(change.returnTo, CART_PATH);
      if (viewer) {
        const added = await addToCart(context.get(supabaseContext), viewer.id, change.agentId);
        if (!added.ok)
          return redirectWithFlash(request, back, { kind: 'error', message: CART_REFUSALS[added.refusal].message });
        return redirectWithFlash(
          request,
          back,
          { kind: 'success', message: 'Added to your cart.' },
          { 'Set-Cookie': await forgetCartCount(request) },
        );
      }
      // A visitor: the cookie, for an agent that is on sale.
      const ids = await guestCartIds(request);
      const [agent] = (await readGuestCart(publicSupabase(context.get(connectionContext)), [change.agentId])).lines;
      if (agent?.problem)
        return redirectWithFlash(request, back, { kind: 'error', message: LINE_PROBLEMS[agent.problem] });
      if (!ids.includes(change.agentId) && ids.length >= MAX_CART_ITEMS) {
        return redirectWithFlash(request, back, { kind: 'error', message: CART_REFUSALS.full.message });
      }
      const cookie = await guestCartCookieHeader(request, [...new Set([...ids, change.agentId])]);
      return redirectWithFlash(
        request,
        back,
        { kind: 'success', message: 'Added to your cart.' },
        { 'Set-Cookie': cookie },
      );
    }
    if (change.intent === 'remove') {
      const headers = new Headers();
      if (viewer) {
        await removeFromCart(context.get(supabaseContext), viewer.id, change.agentId);
        headers.append('Set-Cookie', await forgetCartCount(request));
      } else {
        const ids = (await guestCartIds(request)).filter((id) => id !== change.agentId);
        headers.append('Set-Cookie', await guestCartCookieHeader(request, ids));
      }
      return redirectWithFlash(request, CART_PATH, { kind: 'success', message: 'Removed from your cart.' }, headers);
    }

    // Check out: signed in (a visitor signs in and comes back to the cart, which joins theirs),
    // with the policies in force accepted.
    const buyer = requirePermission(args, 'place_orders');
    await requireAcceptedPolicies(context, BEFORE_PURCHASE, CART_PATH);
    const connection = context.get(connectionContext);
    const outcome = await checkoutCart(createServiceSupabase(connection), paymentProvider(), {
      buyerId: buyer.id,
      idempotencyKey: change.idempotencyKey,
      shownTotalCents: change.total,
      shownLines: change.lines,
      mailer: productMailer(connection, appOrigin(request)),
    });
    if (!outcome.ok) return formError(submission, cartRefusal(outcome.refusal, change.total, outcome.totalCents));
    const what = outcome.count === 1 ? '1 agent is' : `${outcome.count} agents are`;
    return redirectWithFlash(
      request,
      '/dashboard/collection',
      {
        kind: 'success',
        message: `Order complete! ${what} now in your collection. Paid ${formatMoney(fromCents(outcome.amountCents))}.`,
      },
      { 'Set-Cookie': await forgetCartCount(request) },
    );
  } catch (thrown) {
    const outage = unavailableMessage(thrown);
    if (!outage) throw thrown;
    return formError(submission, { message: outage, status: 503 });
  }
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Your cart', 'The agents in your cart, your price for each, and checkout.');

export default function CartPage({ loaderData, actionData }: Route.ComponentProps) {
  const { cart, signedIn, idempotencyKey, testMode, signInHref: signIn } = loaderData;
  const navigation = useNavigation();
  const checkingOut = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'checkout';
  const notice = formNotice(actionData);
  const blocked = cart.lines.filter((line) => line.problem !== null).length;
  return (
    <div className="container-page flex flex-col gap-6 py-10">
      <h1 className="text-3xl font-bold">Your cart</h1>
      {notice ? <FormMessage {...notice} /> : null}
      {cart.lines.length === 0 ? (
        <EmptyState
          icon={<ShoppingCart aria-hidden="true" className="size-10" />}
          title="Your cart is empty"
          message="Add agents from their pages or from the marketplace, then buy them all at once."
        >
          <Link to="/marketplace" className={`${buttonClass('primary')} mt-6`}>
            Browse Marketplace
          </Link>
        </EmptyState>
      ) : (
        <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <section aria-labelledby="cart-lines" className="flex flex-col gap-3">
            <h2 id="cart-lines" className="text-xl font-semibold">
              {cart.lines.length === 1 ? '1 agent' : `${cart.lines.length} agents`}
            </h2>
            <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
              {cart.lines.map((line) => (
                <CartLineItem key={line.agentId} line={line} discountPercent={cart.discountPercent} />
              ))}
            </ul>
          </section>
          <section
            aria-labelledby="cart-summary"
            className="flex h-fit flex-col gap-3 rounded-2xl border border-slate-200 p-5 dark:border-slate-700"
          >
            <h2 id="cart-summary" className="text-xl font-semibold">
              Order summary
            </h2>
            <dl className="flex flex-col gap-1 text-sm">
              <div className="flex justify-between gap-4">
                <dt>Subtotal</dt>
                <dd>{formatMoney(fromCents(cart.listCents))}</dd>
              </div>
              {cart.discountCents > 0 ? (
                <div className="flex justify-between gap-4">
                  <dt>Member discount ({cart.discountPercent}%)</dt>
                  <dd>-{formatMoney(fromCents(cart.discountCents))}</dd>
                </div>
              ) : null}
              <div className="flex justify-between gap-4 border-t border-slate-200 pt-2 text-base font-semibold dark:border-slate-700">
                <dt>Total</dt>
                <dd>{formatMoney(fromCents(cart.totalCents))}</dd>
              </div>
            </dl>
            {signedIn ? (
              <p className="text-sm text-slate-700 dark:text-slate-300">
                {cart.card ? `Charged to your ${cart.card}.` : 'Charged to your default payment method.'} One payment,
                one invoice.
              </p>
            ) : null}
            {blocked > 0 ? (
              <p role="status" className="text-sm font-medium text-red-800 dark:text-red-300">
                Remove the {blocked === 1 ? 'agent' : `${blocked} agents`} that cannot be bought to check out.
              </p>
            ) : null}
            {signedIn ? (
              <Form method="post">
                <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
                <input type="hidden" name="total" value={shownPriceValue(cart.totalCents)} />
                <input
                  type="hidden"
                  name="lines"
                  value={cart.lines.map((line) => `${line.agentId}:${line.amountCents}`).join(',')}
                />
                <SubmitButton
                  name="intent"
                  value="checkout"
                  pending={checkingOut}
                  pendingLabel="Processing..."
                  disabled={!cart.ready || checkingOut}
                  wide
                >
                  Check out · {formatMoney(fromCents(cart.totalCents))}
                </SubmitButton>
              </Form>
            ) : (
              <Link to={signIn} className={buttonClass('primary', 'md', 'w-full')}>
                Sign in to check out
              </Link>
            )}
            {testMode ? (
              <p className="flex items-center gap-2 text-xs text-slate-700 dark:text-slate-300">
                <FlaskConical aria-hidden="true" className="size-4 shrink-0" /> {TEST_MODE_NOTE}
              </p>
            ) : null}
          </section>
        </div>
      )}
    </div>
  );
}

function CartLineItem({ line, discountPercent }: { line: CartLine; discountPercent: number }) {
  const navigation = useNavigation();
  const removing = navigation.state !== 'idle' && navigation.formData?.get('agentId') === line.agentId;
  const storedImage = useStoredImage();
  const thumbnail = line.thumbnailUrl ? storedImage(line.thumbnailUrl) : null;
  const name = line.name ?? 'An agent no longer listed';
  return (
    <li className="flex flex-wrap items-start gap-4 p-4" aria-label={name}>
      {thumbnail ? (
        <img src={thumbnail} alt="" width={64} height={64} className="size-16 rounded-lg object-cover" />
      ) : null}
      <div className="min-w-0 flex-[1_1_12rem]">
        {line.name ? (
          <Link to={`/agent/${line.agentId}`} className="font-semibold hover:underline">
            {line.name}
          </Link>
        ) : (
          <p className="font-semibold">{name}</p>
        )}
        {line.sellerName ? <p className="text-sm text-slate-700 dark:text-slate-300">by {line.sellerName}</p> : null}
        {line.problem ? (
          <p className="mt-1 text-sm font-medium text-red-800 dark:text-red-300">{LINE_PROBLEMS[line.problem]}</p>
        ) : null}
      </div>
      <div className="flex flex-col items-end gap-2">
        {line.problem === 'not-on-sale' ? null : (
          <p className="text-right">
            {line.discountCents > 0 ? (
              <>
                <span className="mr-2 text-sm text-slate-600 line-through dark:text-slate-400">
                  <span className="sr-only">List price </span>
                  {formatMoney(fromCents(line.listPriceCents))}
                </span>
                <span className="font-semibold">
                  <span className="sr-only">Your price with {discountPercent}% member discount </span>
                  {formatMoney(fromCents(line.amountCents))}
                </span>
              </>
            ) : (
              <span className="font-semibold">{formatMoney(fromCents(line.amountCents))}</span>
            )}
          </p>
        )}
        <Form method="post">
          <input type="hidden" name="agentId" value={line.agentId} />
          <button type="submit" name="intent" value="remove" disabled={removing} className={buttonClass('ghost', 'sm')}>
            <Trash2 aria-hidden="true" className="size-4" />
            Remove<span className="sr-only"> {name}</span>
          </button>
        </Form>
      </div>
    </li>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
