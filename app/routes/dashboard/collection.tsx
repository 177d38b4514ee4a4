import { data } from 'react-router';
import { CollectionGrid, CollectionHeader, EmptyCollection } from '~/components/dashboard/collection-parts';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { LoadError } from '~/components/page-states';
import { supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { COLLECTION_PATH, collectionCountLine } from '~/lib/collection';
import { errorMeta, pageMeta } from '~/lib/meta';
import { listCollection } from '~/server/collection.server';
import { failIfInjected } from '~/server/faults.server';
import { requireSection } from '~/server/guards.server';
import { unavailableMessage } from '~/server/http-errors.server';
import type { Route } from './+types/collection';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  try {
    failIfInjected(args.request, 'collection');
    return { items: await listCollection(args.context.get(supabaseContext), viewer.id, timeZone), error: null };
  } catch (thrown) {
    // A failed read shows 'Error Loading Collection' inside the page (503), never sample data.
    const message = unavailableMessage(thrown);
    if (message === null) throw thrown;
    return data({ items: null, error: message }, { status: 503 });
  }
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('My Collection', 'The AI agents you bought on AgentMarket, ready to download and rate.');

export default function CollectionPage({ loaderData }: Route.ComponentProps) {
  const { items, error } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <CollectionHeader>
        {items ? <p className="mt-1 text-slate-700 dark:text-slate-300">{collectionCountLine(items.length)}</p> : null}
      </CollectionHeader>
      {error !== null ? (
        <LoadError title="Error Loading Collection" message={error} retryHref={COLLECTION_PATH} />
      ) : items.length === 0 ? (
        <EmptyCollection />
      ) : (
        <CollectionGrid items={items} />
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
