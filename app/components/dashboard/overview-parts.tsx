import { Activity, ArrowRight, Inbox, ShoppingBag, Star, TrendingUp, UserPlus } from 'lucide-react';
import { Link } from 'react-router';
import { formatAverage, formatConversion } from '~/lib/analytics';
import { formatDate, formatMoney } from '~/lib/dashboard-format';
import { quickActionsFor } from '~/lib/dashboard-nav';
import type { Role } from '~/lib/permissions';
import type { ActivityEvent } from '~/server/dashboard-activity.server';
import type { PlatformInsights } from '~/server/analytics.server';
import type { StatCard } from '~/server/dashboard.server';

const PANEL = 'rounded-xl border border-slate-200 p-5 dark:border-slate-800';
const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';

function formatStat(card: StatCard): string {
  if (card.format === 'percent') return formatConversion(card.value);
  if (card.value === null) return 'No ratings yet';
  if (card.format === 'money') return formatMoney(card.value);
  if (card.format === 'rating') return `${card.value.toFixed(1)} / 5`;
  if (card.format === 'average') return formatAverage(card.value);
  return card.value.toLocaleString('en-US');
}

export function StatCards({ cards }: { cards: StatCard[] }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {cards.map((card) => (
        <div key={card.label} className={PANEL}>
          <dt className={SECONDARY}>{card.label}</dt>
          <dd className="mt-2 text-2xl font-bold">{formatStat(card)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function QuickActions({ role }: { role: Role }) {
  return (
    <section aria-labelledby="quick-actions" className={PANEL}>
      <h2 id="quick-actions" className="text-lg font-semibold">
        Quick Actions
      </h2>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2">
        {quickActionsFor(role).map((action) => (
          <li key={action.path}>
            <Link
              to={action.path}
              className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 p-3 hover:border-brand-600 dark:border-slate-700"
            >
              <span>
                <span className="block font-medium">{action.label}</span>
                <span className={SECONDARY}>{action.description}</span>
              </span>
              <ArrowRight aria-hidden="true" className="size-4 shrink-0" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

const ACTIVITY_ICON = { purchase: ShoppingBag, review: Star, sale: TrendingUp, signup: UserPlus };

export function RecentActivity({ events, timeZone }: { events: ActivityEvent[]; timeZone: string }) {
  return (
    <section aria-labelledby="recent-activity" className={PANEL}>
      <h2 id="recent-activity" className="text-lg font-semibold">
        Recent Activity
      </h2>
      {events.length === 0 ? (
        <div className="mt-6 flex flex-col items-center gap-2 py-6 text-center">
          <Inbox aria-hidden="true" className="size-8 text-slate-600 dark:text-slate-400" />
          <p className="font-medium">No activity yet</p>
          <p className={SECONDARY}>Purchases and reviews will show up here.</p>
        </div>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
          {events.map((event) => {
            const Icon = ACTIVITY_ICON[event.kind];
            return (
              <li key={event.id} className="flex items-start gap-3 py-3">
                <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-700 dark:text-brand-300" />
                <div className="min-w-0 flex-1 wrap-anywhere">
                  <p className="font-medium">{event.title}</p>
                  <p className={SECONDARY}>{event.detail}</p>
                </div>
                <time dateTime={event.at} className={`${SECONDARY} shrink-0`}>
                  {formatDate(event.at, timeZone)}
                </time>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export function PlatformInsightsPanel({ insights }: { insights: PlatformInsights }) {
  const growth = insights.revenueGrowthPercent;
  return (
    <section aria-labelledby="platform-insights" className={PANEL}>
      <h2 id="platform-insights" className="flex items-center gap-2 text-lg font-semibold">
        <Activity aria-hidden="true" className="size-5" /> Platform Insights
      </h2>
      <dl className="mt-4 grid gap-4 sm:grid-cols-3">
        <div>
          <dt className={SECONDARY}>Daily Active Users</dt>
          <dd className="text-xl font-bold">{insights.dailyActiveUsers.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt className={SECONDARY}>Revenue Growth</dt>
          <dd className="text-xl font-bold">
            {growth === null ? 'No prior revenue' : `${growth > 0 ? '+' : ''}${growth.toFixed(1)}%`}
          </dd>
        </div>
        <div>
          <dt className={SECONDARY}>New Agents</dt>
          <dd className="text-xl font-bold">{insights.newAgents.toLocaleString('en-US')}</dd>
        </div>
      </dl>
      <p className={`mt-3 ${SECONDARY}`}>
        Active users today; revenue and new agents over the last 30 days against the 30 before (UTC days), as on
        Platform Analytics.
      </p>
    </section>
  );
}
