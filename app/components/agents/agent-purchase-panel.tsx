import { CheckCircle2, Download, Pencil, ShoppingCart } from 'lucide-react';
import { Form, Link, useNavigation } from 'react-router';
import { buttonClass } from '~/components/ui/button';
import { formatPrice } from '~/lib/agents';
import { purchaseCountLabel, type AgentCallToAction } from '~/lib/agent-detail';

/** Price, the call to action for this viewer, and how many people bought the agent. */
export function AgentPurchasePanel({
  agentId,
  price,
  purchaseCount,
  cta,
  signInHref,
  message,
}: {
  agentId: string;
  price: number;
  purchaseCount: number;
  cta: AgentCallToAction;
  signInHref: string;
  message: string | null;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'buy';
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
        <Form method="post" action={`/agent/${agentId}`} className="flex flex-col gap-2">
          <button
            type="submit"
            name="intent"
            value="buy"
            disabled={pending}
            className={buttonClass('primary', 'lg', 'w-full')}
          >
            <ShoppingCart aria-hidden="true" className="size-5" /> {pending ? 'Please wait…' : 'Buy now'}
          </button>
        </Form>
      ) : null}

      {cta === 'owned' ? (
        <>
          <p className="flex items-center gap-2 font-semibold text-green-800 dark:text-green-300">
            <CheckCircle2 aria-hidden="true" className="size-5" /> In your collection
          </p>
          <Link to="/dashboard/collection" className={buttonClass('primary', 'lg', 'w-full')}>
            <Download aria-hidden="true" className="size-5" /> Download
          </Link>
        </>
      ) : null}

      {cta === 'edit' ? (
        <>
          <p className="text-sm text-slate-700 dark:text-slate-300">You are the seller of this agent.</p>
          <Link to="/dashboard/agents" className={buttonClass('secondary', 'lg', 'w-full')}>
            <Pencil aria-hidden="true" className="size-5" /> Edit agent
          </Link>
        </>
      ) : null}

      {cta === 'unavailable' ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">This agent is not on sale.</p>
      ) : null}

      {message ? (
        <p
          role="alert"
          className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          {message}
        </p>
      ) : null}
    </div>
  );
}
