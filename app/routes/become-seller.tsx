import { BadgeDollarSign, Rocket, ShieldCheck, Upload } from 'lucide-react';
import { Link } from 'react-router';
import { Can } from '~/components/can';
import { buttonClass } from '~/components/ui/button';
import { pageMeta } from '~/lib/meta';

const STEPS = [
  {
    Icon: Rocket,
    title: 'Create a seller account',
    text: 'Sign up and choose Seller as your account type. It is free.',
  },
  { Icon: Upload, title: 'List your agent', text: 'Describe it, set a price, add images and upload the package.' },
  {
    Icon: BadgeDollarSign,
    title: 'Get paid',
    text: 'Buyers purchase and download; you follow every sale in your dashboard.',
  },
  { Icon: ShieldCheck, title: 'Build trust', text: 'Reviews from verified buyers help great agents rise to the top.' },
];

export const meta = () => pageMeta('Become a Seller', 'Sell your AI agents to thousands of businesses on AgentMarket.');

export default function BecomeSellerPage() {
  return (
    <div className="container-page py-16">
      <section className="mx-auto max-w-3xl text-center">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Sell your AI agents to the world</h1>
        <p className="mt-4 text-lg text-slate-700 dark:text-slate-300">
          AgentMarket connects independent AI builders with businesses that need ready-made agents. List in minutes, set
          your own prices, and keep control of your work.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {/* Sellers already have the tools: send them to their agents instead of the sign-up. */}
          <Can
            permission="upload_ai_agents"
            fallback={
              <Link to="/become-seller?auth=sign-up&accountType=seller" className={buttonClass('primary', 'lg')}>
                Start selling
              </Link>
            }
          >
            <Link to="/dashboard/upload" className={buttonClass('primary', 'lg')}>
              Upload an agent
            </Link>
          </Can>
          <Link to="/marketplace" className={buttonClass('secondary', 'lg')}>
            See what sells
          </Link>
        </div>
      </section>
      <ol className="mt-16 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {STEPS.map(({ Icon, title, text }, index) => (
          <li key={title} className="rounded-2xl border border-slate-200 p-6 dark:border-slate-700">
            <Icon aria-hidden="true" className="size-8 text-brand-600 dark:text-brand-300" />
            <h2 className="mt-4 font-semibold">
              {index + 1}. {title}
            </h2>
            <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{text}</p>
          </li>
        ))}
      </ol>
    </div>
  );
}
