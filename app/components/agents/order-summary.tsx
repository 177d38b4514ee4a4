import { CheckCircle2, FlaskConical } from 'lucide-react';
import { Form, href, Link, useNavigation } from 'react-router';
import { OwnedAgentLinks } from '~/components/agents/agent-purchase-panel';
import { buttonClass } from '~/components/ui/button';
import { FormMessage } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { formatMoney } from '~/lib/dashboard-format';
import { formNotice, type FormResult } from '~/lib/form-result';
import { TIERS } from '~/lib/membership';
import { fromCents } from '~/lib/money';

/** What the buyer would be charged, and the confirmation form's fields (the loader's `order`). */
export interface OrderLine {
  listCents: number;
  discountCents: number;
  amountCents: number;
  discountPercent: number;
  /** The card charged ("Visa ending in 4242"); null without a saved one. */
  card: string | null;
  testMode: boolean;
  /** The price as shown, as the form carries it ("89.10"): no other is charged. */
  price: string;
  /** A new key per summary shown: the same confirmation submitted twice is one purchase. */
  idempotencyKey: string;
}

const money = (cents: number) => formatMoney(fromCents(cents));
const ROW = 'flex items-baseline justify-between gap-4 py-2';
const TERM = 'text-sm text-slate-700 dark:text-slate-300';

/**
 * The order summary (routes/agent-checkout.tsx): the agent, its version, the price after the
 * member's discount, the card charged and the licence, then Confirm purchase, the only button that
 * charges. When there is nothing to buy it says why (already owned: the way to download it).
 */
export function OrderSummary({
  agent,
  owned,
  refusal,
  order,
  version,
  result,
}: {
  agent: { id: string; name: string };
  owned: boolean;
  refusal: string | null;
  order: OrderLine | null;
  /** The agent's current version (the agent page's changelog); null without one. */
  version: string | null;
  result: FormResult | undefined;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'buy';
  const notice = formNotice(result);
  const agentPath = href('/agent/:agentId', { agentId: agent.id });

  if (!order) {
    return (
      <div className="mt-4 flex flex-col gap-4">
        <p className="font-semibold">{agent.name}</p>
        {owned ? (
          <>
            <p className="flex items-center gap-2 font-semibold text-green-800 dark:text-green-300">
              <CheckCircle2 aria-hidden="true" className="size-5 shrink-0" /> {refusal}
            </p>
            <OwnedAgentLinks agentId={agent.id} />
          </>
        ) : (
          <>
            {refusal ? <FormMessage kind="error" message={refusal} /> : null}
            <Link to={agentPath} preventScrollReset className={`${buttonClass('secondary')} self-start`}>
              Back to {agent.name}
            </Link>
          </>
        )}
      </div>
    );
  }

  const tier = TIERS.find((candidate) => candidate.discountPercent === order.discountPercent);
  const discountLabel = `${tier?.name ?? 'Member'} member discount (${order.discountPercent}%)`;
  const payment = order.card ?? (order.testMode ? 'Test mode' : 'No saved payment method');
  return (
    <div className="mt-2 flex flex-col gap-4">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Check the details. Nothing is charged until you confirm.
      </p>
      <dl className="divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-700 dark:border-slate-700">
        <div className={ROW}>
          <dt className={TERM}>Agent</dt>
          <dd className="text-right font-semibold">{agent.name}</dd>
        </div>
        {version ? (
          <div className={ROW}>
            <dt className={TERM}>Version</dt>
            <dd className="text-right">{version}</dd>
          </div>
        ) : null}
        {order.discountCents > 0 ? (
          <>
            <div className={ROW}>
              <dt className={TERM}>List price</dt>
              <dd className="text-right">{money(order.listCents)}</dd>
            </div>
            <div className={ROW}>
              <dt className={TERM}>{discountLabel}</dt>
              <dd className="text-right">−{money(order.discountCents)}</dd>
            </div>
          </>
        ) : null}
        <div className={ROW}>
          <dt className="font-semibold">Total</dt>
          <dd className="text-right text-xl font-bold">{money(order.amountCents)}</dd>
        </div>
        <div className={ROW}>
          <dt className={TERM}>Payment method</dt>
          <dd className="text-right">{payment}</dd>
        </div>
      </dl>
      {order.testMode ? (
        <p className="flex items-center gap-2 text-xs text-slate-700 dark:text-slate-300">
          <FlaskConical aria-hidden="true" className="size-4 shrink-0" /> Test mode: no real payment is taken.
        </p>
      ) : null}
      {!order.card && !order.testMode ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          <Link to={href('/dashboard/billing/payment-methods/new')} className="font-medium underline">
            Add a payment method
          </Link>{' '}
          before you buy.
        </p>
      ) : null}
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Your purchase gives you a licence to use {agent.name} as its seller describes, under our{' '}
        <Link to="/terms" className="font-medium text-brand-700 underline dark:text-brand-300">
          Terms of Service
        </Link>
        .
      </p>
      {notice ? <FormMessage {...notice} /> : null}
      <Form method="post" className="flex flex-wrap gap-3">
        <input type="hidden" name="idempotencyKey" value={order.idempotencyKey} />
        <input type="hidden" name="price" value={order.price} />
        <SubmitButton name="intent" value="buy" pending={pending} pendingLabel="Please wait…">
          Confirm purchase
        </SubmitButton>
        <Link to={agentPath} preventScrollReset className={buttonClass('secondary')}>
          Cancel
        </Link>
      </Form>
    </div>
  );
}
