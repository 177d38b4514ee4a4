import { CheckCircle2, Clock, Download, FlaskConical, Pencil, ShoppingCart } from 'lucide-react';
import { href, Link, useNavigation } from 'react-router';
import { AddToCartForm } from '~/components/agents/add-to-cart';
import { buttonClass } from '~/components/ui/button';
import { formatPrice } from '~/lib/agents';
import { purchaseCountLabel, type AgentCallToAction } from '~/lib/agent-detail';
import { formatMoney } from '~/lib/dashboard-format';
import { discountedPrice, TIERS } from '~/lib/membership';

export interface CheckoutOffer {
  /** The viewer's membership discount on this agent, in percent (0 without one). */
  discountPercent: number;
  /** No money moves (the test-mode payment provider): said wherever money would. */
  testMode: boolean;
}

/** The Buy now link's id: closing the order summary gives focus back to it. */
export const BUY_NOW_ID = 'buy-now';

export const TEST_MODE_NOTE = 'Test mode: no real payment is taken. Purchases complete at once.';

/** An owner's way to the agent: Download (the current version) and their collection. */
export function OwnedAgentLinks({ agentId }: { agentId: string }) {
  return (
    <>
      <a
        href={href('/agent/:agentId/download', { agentId })}
        download
        className={buttonClass('primary', 'lg', 'w-full')}
      >
        <Download aria-hidden="true" className="size-5" /> Download
      </a>
      <Link
        to="/dashboard/collection"
        className="text-center text-sm font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
      >
        View My Collection
      </Link>
    </>
  );
}

/** Price, the call to action for this viewer, and how many people bought the agent. */
export function AgentPurchasePanel({
  agentId,
  agentName,
  price,
  purchaseCount,
  cta,
  checkout,
  signInHref,
}: {
  agentId: string;
  agentName: string;
  price: number;
  purchaseCount: number;
  cta: AgentCallToAction;
  checkout: CheckoutOffer;
  signInHref: string;
}) {
  const navigation = useNavigation();
  const checkoutPath = href('/agent/:agentId/checkout', { agentId });
  // With JavaScript the order summary opens over this page once its data has arrived.
  const opening = navigation.state === 'loading' && navigation.location.pathname === checkoutPath;
  const tier = TIERS.find((candidate) => candidate.discountPercent === checkout.discountPercent);
  const discounted = cta === 'buy' && checkout.discountPercent > 0 && tier;
  // What the buyer would pay; the order summary states it again, and its form carries it.
  const payable = discountedPrice(price, checkout.discountPercent);
  return (
    <div className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <div className="flex items-baseline justify-between gap-3">
        <p className="text-3xl font-bold text-brand-700 dark:text-brand-300">
          <span className="sr-only">Price: </span>
          {formatPrice(price)}
        </p>
        <p className="text-sm text-slate-700 dark:text-slate-300">{purchaseCountLabel(purchaseCount)}</p>
      </div>

      {cta === 'sign-in' ? (
        <Link to={signInHref} className={buttonClass('primary', 'lg', 'w-full')}>
          <ShoppingCart aria-hidden="true" className="size-5" /> Buy now
        </Link>
      ) : null}

      {cta === 'buy' ? (
        <div className="flex flex-col gap-2">
          {discounted ? (
            <p className="text-sm text-slate-800 dark:text-slate-200">
              Your {tier.name} price: <span className="font-semibold">{formatMoney(payable)}</span> (
              {checkout.discountPercent}% member discount)
            </p>
          ) : null}
          {/* The order summary first (/agent/:agentId/checkout): nothing is charged before Confirm purchase. */}
          <Link id={BUY_NOW_ID} to={checkoutPath} preventScrollReset className={buttonClass('primary', 'lg', 'w-full')}>
            <ShoppingCart aria-hidden="true" className="size-5" /> {opening ? 'Please wait…' : 'Buy now'}
          </Link>
        </div>
      ) : null}

      {cta === 'sign-in' || cta === 'buy' ? (
        <AddToCartForm agentId={agentId} agentName={agentName} returnTo={href('/agent/:agentId', { agentId })} />
      ) : null}
      {(cta === 'buy' || cta === 'sign-in') && checkout.testMode ? (
        <p className="flex items-center gap-2 text-xs text-slate-700 dark:text-slate-300">
          <FlaskConical aria-hidden="true" className="size-4 shrink-0" /> {TEST_MODE_NOTE}
        </p>
      ) : null}

      {cta === 'pending' ? (
        <p className="flex items-center gap-2 font-semibold text-yellow-900 dark:text-yellow-200">
          <Clock aria-hidden="true" className="size-5" /> Your payment for this agent is being processed.
        </p>
      ) : null}

      {cta === 'owned' ? (
        <>
          <p className="flex items-center gap-2 font-semibold text-green-800 dark:text-green-300">
            <CheckCircle2 aria-hidden="true" className="size-5" /> In your collection
          </p>
          <OwnedAgentLinks agentId={agentId} />
        </>
      ) : null}

      {cta === 'edit' ? (
        <>
          <p className="text-sm text-slate-700 dark:text-slate-300">You are the seller of this agent.</p>
          <Link to={`/dashboard/agents/${agentId}/edit`} className={buttonClass('secondary', 'lg', 'w-full')}>
            <Pencil aria-hidden="true" className="size-5" /> Edit agent
          </Link>
        </>
      ) : null}

      {cta === 'unavailable' ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">This agent is not on sale.</p>
      ) : null}
    </div>
  );
}
