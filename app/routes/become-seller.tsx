/**
 * `/become-seller`: what selling involves (the platform fee in force, a platform setting;
 * payouts; the listing rules) and, for a signed-in buyer, the form that upgrades
 * the account to seller. Signed-out visitors are invited to sign up as a seller; sellers and
 * administrators are sent to their agents.
 */
import { BadgeDollarSign, CheckCircle2, Rocket, ShieldCheck, Upload } from 'lucide-react';
import { Link } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { BecomeSellerForm } from '~/components/sellers/become-seller-form';
import { buttonClass } from '~/components/ui/button';
import { connectionContext } from '~/context';
import { errorMeta, pageMeta } from '~/lib/meta';
import { useOptionalViewer } from '~/lib/use-viewer';
import { BecomeSellerSchema, SELLER_MESSAGES } from '~/schemas/seller';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireUser } from '~/server/guards.server';
import { becomeSeller } from '~/server/sellers.server';
import { AUTHORITY_NAME_MESSAGE } from '~/lib/auth-rules';
import { platformSettings } from '~/server/platform-settings.server';
import { createServiceSupabase } from '~/server/supabase.server';
import type { Route } from './+types/become-seller';
import { hasPermission } from '~/lib/permissions';

/** Where a new seller lands, and where sellers find their agents. */
const SELLER_HOME = '/dashboard/agents';
const SIGN_UP_AS_SELLER = '/become-seller?auth=sign-up&accountType=seller';

const STEPS = [
  {
    Icon: Rocket,
    title: 'Become a seller',
    text: 'Tell buyers who you are and accept the seller terms. It is free.',
  },
  { Icon: Upload, title: 'List your agent', text: 'Describe it, set a price, add images and upload the package.' },
  {
    Icon: BadgeDollarSign,
    title: 'Get paid',
    text: 'Buyers purchase and download; you follow every sale in your dashboard.',
  },
  { Icon: ShieldCheck, title: 'Build trust', text: 'Reviews from verified buyers help great agents rise to the top.' },
];

const terms = (feePercent: number) => [
  {
    title: 'Platform fee',
    text: `AgentMarket keeps ${feePercent}% of each sale; you keep the rest. No listing fees, no monthly fees. A refunded sale costs you nothing.`,
  },
  {
    title: 'Payouts',
    text: 'Your earnings, after the fee and any refunds, are paid out monthly. Your Earnings page shows every sale, fee and refund as it happens.',
  },
  {
    title: 'Listing rules',
    text: 'List only agents you built or may sell, describe what they really do, and ship a working package. Agents that break the rules are unpublished with a reason you can see.',
  },
];

export async function loader({ context }: Route.LoaderArgs) {
  const settings = await platformSettings(context);
  return { feePercent: settings.platformFeePercent };
}

export async function action(args: Route.ActionArgs) {
  const viewer = requireUser(args);
  const submission = parseForm(await args.request.formData(), BecomeSellerSchema);
  if (hasPermission(viewer.role, 'list_products'))
    return formError(submission, { message: SELLER_MESSAGES.alreadySeller, status: 409 });
  if (submission.status !== 'success') return formError(submission);

  const { displayName, pitch, responseTimeHours } = submission.value;
  const service = createServiceSupabase(args.context.get(connectionContext));
  const result = await becomeSeller(service, viewer.id, { displayName, pitch, responseTimeHours });
  if (!result.ok && result.reason === 'authority-name') {
    const message = AUTHORITY_NAME_MESSAGE;
    return formError(submission, { message, fieldErrors: { displayName: [message] }, status: 400 });
  }
  if (!result.ok) return formError(submission, { message: SELLER_MESSAGES.alreadySeller, status: 409 });

  return redirectWithFlash(args.request, SELLER_HOME, {
    kind: 'success',
    message: `Welcome, ${displayName ?? viewer.username}! You are now a seller.`,
  });
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Become a Seller', 'Sell your AI agents on AgentMarket.');

export default function BecomeSellerPage({ loaderData, actionData }: Route.ComponentProps) {
  const viewer = useOptionalViewer();
  const isBuyer = Boolean(viewer) && !hasPermission(viewer?.role, 'list_products');
  return (
    <div className="container-page py-16">
      <section className="mx-auto max-w-3xl text-center">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Sell your AI agents to the world</h1>
        <p className="mt-4 text-lg text-slate-700 dark:text-slate-300">
          AgentMarket connects independent AI builders with businesses that need ready-made agents. List in minutes, set
          your own prices, and keep control of your work.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {!viewer ? (
            <Link to={SIGN_UP_AS_SELLER} className={buttonClass('primary', 'lg')}>
              Start selling
            </Link>
          ) : isBuyer ? (
            <a href="#become-seller-form" className={buttonClass('primary', 'lg')}>
              Start selling
            </a>
          ) : (
            <Link to="/dashboard/upload" className={buttonClass('primary', 'lg')}>
              Upload an agent
            </Link>
          )}
          <Link to="/marketplace" className={buttonClass('secondary', 'lg')}>
            See what sells
          </Link>
        </div>
      </section>

      <ol className="mt-16 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {STEPS.map(({ Icon, title, text }, index) => (
          <li key={title} className="rounded-2xl border border-slate-200 p-6 dark:border-slate-700">
            <Icon aria-hidden="true" className="size-8 text-brand-600 dark:text-brand-300" />
            <h2 className="mt-4 font-semibold">
              {index + 1}. {title}
            </h2>
            <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{text}</p>
          </li>
        ))}
      </ol>

      <section aria-labelledby="selling-terms-title" className="mx-auto mt-16 max-w-3xl">
        <h2 id="selling-terms-title" className="text-2xl font-semibold">
          How selling works
        </h2>
        <dl className="mt-6 grid gap-4">
          {terms(loaderData.feePercent).map(({ title, text }) => (
            <div key={title} className="rounded-2xl border border-slate-200 p-5 dark:border-slate-700">
              <dt className="flex items-center gap-2 font-semibold">
                <CheckCircle2 aria-hidden="true" className="size-5 text-brand-600 dark:text-brand-300" />
                {title}
              </dt>
              <dd className="mt-2 text-sm text-slate-700 dark:text-slate-300">{text}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section
        id="become-seller-form"
        aria-labelledby="become-seller-title"
        className="mx-auto mt-16 max-w-3xl scroll-mt-24 rounded-2xl border border-slate-200 p-6 sm:p-8 dark:border-slate-700"
      >
        <h2 id="become-seller-title" className="text-2xl font-semibold">
          {viewer && !isBuyer ? 'You are already a seller' : 'Set up your seller account'}
        </h2>
        {!viewer ? (
          <div className="mt-4 flex flex-col items-start gap-4">
            <p className="text-slate-700 dark:text-slate-300">
              Create a free account and choose Seller as its type, or sign in to upgrade your buyer account.
            </p>
            <Link to={SIGN_UP_AS_SELLER} className={buttonClass('primary')}>
              Sign up as a seller
            </Link>
          </div>
        ) : isBuyer ? (
          <>
            <p className="mt-2 mb-6 text-slate-700 dark:text-slate-300">
              Your purchases and collection stay as they are; you can buy agents as a seller too.
            </p>
            <BecomeSellerForm username={viewer.username} result={actionData} />
          </>
        ) : (
          <div className="mt-4 flex flex-col items-start gap-4">
            <p className="text-slate-700 dark:text-slate-300">
              List, edit and publish your agents from your dashboard.
            </p>
            <Link to={SELLER_HOME} className={buttonClass('primary')}>
              Go to My AI Agents
            </Link>
          </div>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
