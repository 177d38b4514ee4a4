import { GeneralErrorBoundary } from '~/components/error-boundary';
import { Link } from 'react-router';
import { CategoryIcon } from '~/components/category-icon';
import { connectionContext } from '~/context';
import { marketplaceCategoryHref } from '~/lib/categories';
import { errorMeta, pageMeta } from '~/lib/meta';
import { getCatalogueCounts, listCategories } from '~/server/agents.server';
import type { Route } from './+types/categories';
import { publicSupabase } from '~/server/supabase.server';
import { pluralize } from '~/lib/plural';

export async function loader({ context }: Route.LoaderArgs) {
  const supabase = publicSupabase(context.get(connectionContext));
  const [categories, { categoryCounts }] = await Promise.all([listCategories(supabase), getCatalogueCounts(supabase)]);
  return { categories, counts: categoryCounts };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta(
    'Categories',
    'Browse AI agents by category: marketing, data analysis, content creation, sales, customer support and finance.',
  );

export default function CategoriesPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="container-page py-12">
      <h1 className="text-4xl font-bold tracking-tight">Categories</h1>
      <p className="mt-4 text-lg text-slate-700 dark:text-slate-300">
        Every agent belongs to one of these categories. Pick one to see its agents in the marketplace.
      </p>
      <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {loaderData.categories.map((category) => (
          <li key={category.name}>
            <Link
              to={marketplaceCategoryHref(category)}
              className="flex h-full flex-col gap-4 rounded-2xl border border-slate-200 p-6 hover:border-brand-500 hover:shadow-md dark:border-slate-700"
            >
              <CategoryIcon category={category} />
              <span className="text-xl font-semibold">{category.name}</span>
              <span className="text-slate-700 dark:text-slate-300">{category.description}</span>
              <span className="mt-auto text-sm font-medium text-brand-700 dark:text-brand-300">
                {pluralize(loaderData.counts[category.name] ?? 0, 'agent')}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
