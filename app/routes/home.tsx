import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ArrowDown, ArrowRight, Bot, Download, Globe2, Rocket, Search, Shield, Star, Users, Zap } from 'lucide-react';
import { Link } from 'react-router';
import { AgentCard } from '~/components/agents/agent-card';
import { CategoryIcon } from '~/components/category-icon';
import { buttonClass } from '~/components/ui/button';
import { connectionContext } from '~/context';
import { marketplaceCategoryHref } from '~/lib/categories';
import { errorMeta, pageMeta } from '~/lib/meta';
import { SAMPLE_AGENTS } from '~/lib/sample-agents';
import { getCatalogueCounts, getPlatformFigures, listCategories, listFeaturedAgents } from '~/server/agents.server';
import { figureRows } from '~/lib/platform-figures';
import type { Route } from './+types/home';
import { publicSupabase } from '~/server/supabase.server';
import { pluralize } from '~/lib/plural';

/** The icons of the stats row, in figureRows' order: agents, sellers, purchases, rating. */
const STAT_ICONS = [Bot, Users, Download, Star];

const STEPS = [
  { Icon: Search, title: 'Find', text: 'Browse and compare agents by category, price and rating.' },
  { Icon: Download, title: 'Purchase and download', text: 'Buy securely and download your agent instantly.' },
  { Icon: Rocket, title: 'Deploy and scale', text: 'Run it in your stack and scale as your business grows.' },
];

const BENEFITS = [
  { Icon: Zap, title: 'Fast deployment', text: 'Ready-made agents go live in minutes, not months.' },
  { Icon: Shield, title: 'Enterprise security', text: 'Vetted sellers, secure payments and private data by default.' },
  { Icon: Globe2, title: 'Global scale', text: 'Agents that serve customers in every time zone and language.' },
];

export async function loader({ context }: Route.LoaderArgs) {
  const supabase = publicSupabase(context.get(connectionContext));
  const [featured, categories, { categoryCounts: counts }, figures] = await Promise.all([
    listFeaturedAgents(supabase),
    listCategories(supabase),
    getCatalogueCounts(supabase),
    getPlatformFigures(supabase),
  ]);
  return { featured: featured.length > 0 ? featured : SAMPLE_AGENTS, categories, counts, stats: figureRows(figures) };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta(
    'AgentMarket',
    'Discover, buy and deploy ready-made AI agents for marketing, sales, support, finance and more.',
  );

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { featured, categories, counts, stats } = loaderData;
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-white py-20 dark:from-slate-900 dark:to-slate-950">
        <div className="container-page text-center">
          <h1 className="mx-auto max-w-4xl text-4xl font-extrabold tracking-tight sm:text-6xl">
            The marketplace for <span className="text-brand-700 dark:text-brand-300">AI agents</span> that work for you
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-700 dark:text-slate-300">
            Explore ready-made agents from independent creators, or become a seller and share yours with the world.
          </p>
          <div className="mt-10 flex flex-wrap justify-center gap-4">
            <Link to="/marketplace" className={buttonClass('primary', 'lg')}>
              Explore Marketplace <ArrowRight aria-hidden="true" className="size-5" />
            </Link>
            <a href="#how-it-works" className={buttonClass('secondary', 'lg')}>
              See How It Works <ArrowDown aria-hidden="true" className="size-5" />
            </a>
          </div>
          <dl className="mx-auto mt-16 grid max-w-4xl grid-cols-2 gap-6 sm:grid-cols-4">
            {stats.map(({ value, label }, index) => {
              const Icon = STAT_ICONS[index] ?? Bot;
              return (
                <div key={label} className="flex flex-col-reverse items-center">
                  <dt className="text-sm text-slate-700 dark:text-slate-300">{label}</dt>
                  <dd className="mt-2 flex flex-col items-center text-3xl font-bold">
                    <Icon aria-hidden="true" className="mb-2 size-6 text-brand-600 dark:text-brand-300" />
                    {value}
                  </dd>
                </div>
              );
            })}
          </dl>
        </div>
      </section>

      <section className="below-fold container-page py-20" aria-labelledby="how-it-works">
        <h2 id="how-it-works" className="text-center text-3xl font-bold">
          How It Works
        </h2>
        <ol className="mt-12 grid gap-8 md:grid-cols-3">
          {STEPS.map(({ Icon, title, text }, index) => (
            <li key={title} className="text-center">
              <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-brand-600 text-white">
                <Icon aria-hidden="true" className="size-7" />
              </span>
              <h3 className="mt-4 text-lg font-semibold">
                {index + 1}. {title}
              </h3>
              <p className="mt-2 text-slate-700 dark:text-slate-300">{text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="below-fold bg-slate-50 py-20 dark:bg-slate-900" aria-labelledby="featured-agents">
        <div className="container-page">
          <div className="flex items-end justify-between gap-4">
            <h2 id="featured-agents" className="text-3xl font-bold">
              Featured Agents
            </h2>
            <Link to="/marketplace" className="font-medium text-brand-700 hover:underline dark:text-brand-300">
              View All <span className="sr-only">agents</span>
            </Link>
          </div>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-5">
            {featured.map((agent) => (
              <li key={agent.id} className="flex">
                <AgentCard agent={agent} />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="below-fold container-page py-20" aria-labelledby="popular-categories">
        <h2 id="popular-categories" className="text-3xl font-bold">
          Popular Categories
        </h2>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {categories.map((category) => (
            <li key={category.name}>
              <Link
                to={marketplaceCategoryHref(category)}
                className="flex items-center gap-4 rounded-2xl border border-slate-200 p-5 hover:border-brand-500 hover:shadow-sm dark:border-slate-700"
              >
                <CategoryIcon category={category} />
                <span>
                  <span className="block font-semibold">{category.name}</span>
                  <span className="text-sm text-slate-700 dark:text-slate-300">
                    {pluralize(counts[category.name] ?? 0, 'agent')}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section className="below-fold bg-slate-50 py-20 dark:bg-slate-900" aria-labelledby="why-choose">
        <div className="container-page">
          <h2 id="why-choose" className="text-center text-3xl font-bold">
            Why Choose AgentMarket
          </h2>
          <ul className="mt-12 grid gap-8 md:grid-cols-3">
            {BENEFITS.map(({ Icon, title, text }) => (
              <li key={title} className="rounded-2xl bg-white p-6 shadow-sm dark:bg-slate-950">
                <Icon aria-hidden="true" className="size-8 text-brand-600 dark:text-brand-300" />
                <h3 className="mt-4 text-lg font-semibold">{title}</h3>
                <p className="mt-2 text-slate-700 dark:text-slate-300">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="below-fold container-page py-20 text-center" aria-labelledby="call-to-action">
        <h2 id="call-to-action" className="text-3xl font-bold">
          Ready to put AI agents to work?
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-slate-700 dark:text-slate-300">
          Find an agent that fits your work, or list your own and sell it to everyone who visits.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-4">
          <Link to="/marketplace" className={buttonClass('primary', 'lg')}>
            Get Started
          </Link>
          <Link to="/become-seller" className={buttonClass('secondary', 'lg')}>
            Become a Seller
          </Link>
        </div>
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
