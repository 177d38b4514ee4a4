import { Badge } from '~/components/dashboard/status-badge';
import { Link } from 'react-router';
import { PLAN_CONFIRM_PATH } from '~/components/dashboard/membership-parts';
import { InfoPage } from '~/components/info-page';
import { TierFeatures } from '~/components/tier-features';
import { buttonClass } from '~/components/ui/button';
import { TIERS } from '~/lib/membership';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { errorMeta, pageMeta } from '~/lib/meta';
import { platformSettings } from '~/server/platform-settings.server';
import type { Route } from './+types/pricing';

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta(
    'Pricing',
    'Membership plans for AgentMarket buyers: Basic, Premium and Enterprise, with discounts on every purchase. Sellers list for free.',
  );

export async function loader({ context }: Route.LoaderArgs) {
  const settings = await platformSettings(context);
  return { feePercent: settings.platformFeePercent };
}

export default function PricingPage({ loaderData }: Route.ComponentProps) {
  return (
    <InfoPage
      title="Pricing"
      intro="Browsing and buying is free. A membership adds a discount on every purchase and more support."
    >
      <ul className="mt-10 grid gap-6 md:grid-cols-3">
        {TIERS.map((tier) => (
          <li
            key={tier.id}
            className={`flex flex-col rounded-2xl border p-6 ${
              tier.isPopular ? 'border-brand-600 shadow-lg' : 'border-slate-200 dark:border-slate-700'
            }`}
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 className="text-xl font-semibold">{tier.name}</h2>
              {tier.isPopular ? <Badge>Most Popular</Badge> : null}
            </div>
            <p className="mt-4">
              <span className="text-4xl font-bold">${tier.monthlyPrice}</span>
              <span className="text-slate-700 dark:text-slate-300"> per month</span>
            </p>
            <TierFeatures tier={tier} className="mt-6" />
            {/* A paid plan opens its confirmation page (sign-in first, then back there); Basic is free. */}
            <Link
              to={tier.id === 'basic' ? '/dashboard/membership' : `${PLAN_CONFIRM_PATH}?tier=${tier.id}`}
              className={`${buttonClass(tier.isPopular ? 'primary' : 'secondary')} mt-6`}
            >
              Choose {tier.name}
            </Link>
          </li>
        ))}
      </ul>
      <section
        aria-labelledby="pricing-sellers-title"
        className="mt-12 rounded-2xl border border-slate-200 p-6 dark:border-slate-700"
      >
        <h2 id="pricing-sellers-title" className="text-xl font-semibold">
          For sellers
        </h2>
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          Listing is free. AgentMarket keeps a platform fee of {loaderData.feePercent}% of each sale; you keep the rest,
          paid out monthly.
        </p>
        <Link to="/become-seller" className={`${buttonClass('secondary')} mt-4`}>
          Become a seller
        </Link>
      </section>
    </InfoPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
