import { data } from 'react-router';
import { Hammer } from 'lucide-react';
import { pageMeta } from '~/lib/meta';
import type { NotFoundError } from '~/lib/route-errors';
import { requireSection } from '~/server/guards.server';
import type { Route } from './+types/coming-soon';

/** The dashboard sections a later issue builds: guarded now, 'Coming Soon - …' until then. */
export function loader(args: Route.LoaderArgs) {
  const { section } = requireSection(args);
  // Only the declaration's not-yet-built sections are routed here (app/routes/dashboard/routes.ts).
  if (!section.comingSoon) throw data({ type: 'not-found' } satisfies NotFoundError, { status: 404 });
  return { label: section.label, comingSoon: section.comingSoon };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData ? pageMeta(loaderData.label, loaderData.comingSoon) : pageMeta('Dashboard', 'Your AgentMarket dashboard.');

export default function ComingSoonPage({ loaderData }: Route.ComponentProps) {
  return (
    <section className="flex flex-col items-center gap-4 rounded-xl border border-dashed border-slate-300 px-6 py-16 text-center dark:border-slate-700">
      <Hammer aria-hidden="true" className="size-10 text-slate-600 dark:text-slate-400" />
      <h1 className="text-2xl font-bold">Coming Soon - {loaderData.label}</h1>
      <p className="max-w-xl text-slate-700 dark:text-slate-300">{loaderData.comingSoon}</p>
    </section>
  );
}
