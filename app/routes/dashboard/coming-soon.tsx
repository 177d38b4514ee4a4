import { GeneralErrorBoundary } from '~/components/error-boundary';
import { Hammer } from 'lucide-react';
import { errorMeta, pageMeta } from '~/lib/meta';
import { requireSection } from '~/server/guards.server';
import { notFound } from '~/server/http-errors.server';
import type { Route } from './+types/coming-soon';

/** The dashboard sections a later issue builds: guarded now, 'Coming Soon - …' until then. */
export function loader(args: Route.LoaderArgs) {
  const { section } = requireSection(args);
  // Only the declaration's not-yet-built sections are routed here (app/routes/dashboard/routes.ts).
  if (!section.comingSoon) notFound();
  return { label: section.label, comingSoon: section.comingSoon };
}

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  errorMeta(error) ??
  (loaderData
    ? pageMeta(loaderData.label, loaderData.comingSoon)
    : pageMeta('Dashboard', 'Your AgentMarket dashboard.'));

export default function ComingSoonPage({ loaderData }: Route.ComponentProps) {
  return (
    <section className="flex flex-col items-center gap-4 rounded-xl border border-dashed border-slate-300 px-6 py-16 text-center dark:border-slate-700">
      <Hammer aria-hidden="true" className="size-10 text-slate-600 dark:text-slate-400" />
      <h1 className="text-2xl font-bold">Coming Soon - {loaderData.label}</h1>
      <p className="max-w-xl text-slate-700 dark:text-slate-300">{loaderData.comingSoon}</p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
