/**
 * /dashboard/upload (`upload_ai_agents`): a new agent with its images and first package. The
 * action is app/server/listing.server.ts (shared with Edit).
 */
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ListingForm } from '~/components/dashboard/listing-form';
import { connectionContext } from '~/context';
import { errorMeta, pageMeta } from '~/lib/meta';
import { listCategories } from '~/server/agents.server';
import { requireSection } from '~/server/guards.server';
import { requireAcceptedPolicies } from '~/server/policies.server';
import { BEFORE_LISTING } from '~/lib/policies';
import { UPLOAD_PATH } from '~/lib/listing';
import { listingAction, listingLimits } from '~/server/listing.server';
import { publicSupabase } from '~/server/supabase.server';
import type { Route } from './+types/upload';

export async function loader(args: Route.LoaderArgs) {
  requireSection(args);
  await requireAcceptedPolicies(args.context, BEFORE_LISTING, `${args.url.pathname}${args.url.search}`);
  const [categories, limits] = await Promise.all([
    listCategories(publicSupabase(args.context.get(connectionContext))),
    listingLimits(args.context),
  ]);
  return {
    categories: categories.map((category) => category.name),
    limits,
    draftId: crypto.randomUUID(),
  };
}

export const action = (args: Route.ActionArgs) => listingAction(args, { kind: 'upload' });

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Upload Agent', 'List a new AI agent on AgentMarket.');

export default function UploadPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">Upload Agent</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          Describe your agent, add its images and the package buyers download. Save it as a draft or publish it.
        </p>
      </header>
      <ListingForm
        action={UPLOAD_PATH}
        categories={loaderData.categories}
        limits={loaderData.limits}
        draftId={loaderData.draftId}
        initial={{
          name: '',
          description: '',
          category: '',
          price: '',
          activationLimit: '',
          features: '',
          thumbnailUrl: null,
          images: [],
        }}
        result={actionData}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
