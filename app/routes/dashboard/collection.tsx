import { data, redirect } from 'react-router';
import { CollectionGrid, CollectionHeader, EmptyCollection } from '~/components/dashboard/collection-parts';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { LoadError } from '~/components/page-states';
import { connectionContext, supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { FormMessage } from '~/components/ui/field';
import { Pager } from '~/components/ui/pager';
import { formNotice } from '~/lib/form-result';
import { PAGE_SIZE } from '~/lib/marketplace-params';
import { pageCount, pageParam } from '~/lib/pagination';
import { COLLECTION_PATH, collectionCountLine, collectionHref } from '~/lib/collection';
import { errorMeta, pageMeta } from '~/lib/meta';
import { LICENSE_MESSAGES } from '~/lib/licenses';
import { ResetActivationsSchema } from '~/schemas/license';
import { listCollection } from '~/server/collection.server';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { resetLicenseUses } from '~/server/licenses.server';
import { failIfInjected } from '~/server/faults.server';
import { requireSection } from '~/server/guards.server';
import { unavailableMessage } from '~/server/http-errors.server';
import type { Route } from './+types/collection';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  try {
    failIfInjected(args.request, 'collection');
    const requested = pageParam(args.url.searchParams.get('page'));
    const collection = await listCollection(
      args.context.get(supabaseContext),
      args.context.get(connectionContext),
      viewer.id,
      timeZone,
      requested,
    );
    // One URL per page, as on the marketplace: a malformed page goes to the first page, one past
    // the end to the last.
    const canonical = collectionHref(collection.page);
    if (`${args.url.pathname}${args.url.search}` !== canonical) throw redirect(canonical);
    return { collection, error: null };
  } catch (thrown) {
    // A failed read shows 'Error Loading Collection' inside the page (503), never sample data.
    const message = unavailableMessage(thrown);
    if (message === null) throw thrown;
    return data({ collection: null, error: message }, { status: 503 });
  }
}

/** The buyer resets a licence's activations (at most once a day), back to the same page. */
export async function action(args: Route.ActionArgs) {
  requireSection(args);
  const submission = parseForm(await args.request.formData(), ResetActivationsSchema);
  if (submission.status !== 'success') return formError(submission);
  const outcome = await resetLicenseUses(args.context.get(supabaseContext), submission.value.licenseId);
  if (outcome === 'not-found') return formError(submission, { message: LICENSE_MESSAGES.notFound, status: 404 });
  if (outcome === 'too-soon') return formError(submission, { message: LICENSE_MESSAGES.resetTooSoon, status: 429 });
  return redirectWithFlash(args.request, `${args.url.pathname}${args.url.search}`, {
    kind: 'success',
    message: LICENSE_MESSAGES.reset,
  });
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('My Collection', 'The AI agents you bought on AgentMarket, ready to download and rate.');

export default function CollectionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { collection, error } = loaderData;
  const notice = formNotice(actionData);
  return (
    <div className="flex flex-col gap-6">
      <CollectionHeader>
        {collection ? (
          <p className="mt-1 text-slate-700 dark:text-slate-300">{collectionCountLine(collection.total)}</p>
        ) : null}
      </CollectionHeader>
      {notice ? <FormMessage {...notice} /> : null}
      {error !== null || collection === null ? (
        <LoadError title="Error Loading Collection" message={error ?? ''} retryHref={COLLECTION_PATH} />
      ) : collection.items.length === 0 ? (
        <EmptyCollection />
      ) : (
        <div>
          <CollectionGrid items={collection.items} returnTo={collectionHref(collection.page)} />
          <Pager
            variant="numbered"
            label="Pagination"
            page={collection.page}
            pageCount={pageCount(collection.total, PAGE_SIZE)}
            hrefFor={collectionHref}
          />
        </div>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
