import { GeneralErrorBoundary } from '~/components/error-boundary';
import { CheckCircle2, XCircle } from 'lucide-react';
import { InfoPage } from '~/components/info-page';
import { supabaseContext } from '~/context';
import { errorMeta, pageMeta } from '~/lib/meta';
import type { Route } from './+types/status';

export async function loader({ context }: Route.LoaderArgs) {
  const supabase = context.get(supabaseContext);
  const started = performance.now();
  const [catalogue, auth] = await Promise.all([
    supabase.from('agents').select('id', { count: 'exact', head: true }).eq('status', 'published'),
    supabase.auth.getSession(),
  ]);
  return {
    checkedAt: new Date().toISOString(),
    services: [
      { name: 'Marketplace catalogue', ok: !catalogue.error },
      { name: 'Accounts and sign-in', ok: !auth.error },
    ],
    latencyMs: Math.round(performance.now() - started),
  };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('System Status', 'The live state of the AgentMarket services.');

export default function StatusPage({ loaderData }: Route.ComponentProps) {
  const allOk = loaderData.services.every((service) => service.ok);
  return (
    <InfoPage
      title="System Status"
      intro={allOk ? 'All systems operational.' : 'Some services are degraded. We are on it.'}
    >
      <ul className="mt-8 divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
        {loaderData.services.map((service) => (
          <li key={service.name} className="flex items-center justify-between p-4">
            <span className="font-medium">{service.name}</span>
            {service.ok ? (
              <span className="flex items-center gap-2 text-green-800 dark:text-green-300">
                <CheckCircle2 aria-hidden="true" className="size-5" /> Operational
              </span>
            ) : (
              <span className="flex items-center gap-2 text-red-700 dark:text-red-300">
                <XCircle aria-hidden="true" className="size-5" /> Degraded
              </span>
            )}
          </li>
        ))}
      </ul>
      <p className="mt-4 text-sm text-slate-700 dark:text-slate-300">
        Checked at {new Date(loaderData.checkedAt).toUTCString()} in {loaderData.latencyMs} ms.
      </p>
    </InfoPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
