import { Mail } from 'lucide-react';
import { LinkList } from '~/components/layout/link-list';
import { Logo } from '~/components/layout/logo';
import { NewsletterForm } from '~/components/layout/newsletter-form';
import type { Flash } from '~/lib/flash';

const LINK_GROUPS = [
  {
    title: 'Quick Links',
    links: [
      { to: '/marketplace', label: 'Marketplace' },
      { to: '/categories', label: 'Categories' },
      { to: '/become-seller', label: 'Become a Seller' },
      { to: '/pricing', label: 'Pricing' },
    ],
  },
  {
    title: 'Support',
    links: [
      { to: '/docs', label: 'Documentation' },
      { to: '/help', label: 'Help Center' },
      { to: '/contact', label: 'Contact Us' },
      { to: '/community', label: 'Community' },
      { to: '/status', label: 'System Status' },
      { to: '/api', label: 'API' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: '/terms', label: 'Terms of Service' },
      { to: '/privacy', label: 'Privacy Policy' },
      { to: '/cookies', label: 'Cookie Policy' },
    ],
  },
];

export function Footer({ flash }: { flash: Flash | null }) {
  return (
    <footer className="mt-16 border-t print:hidden border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <div className="container-page grid gap-10 py-12 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <Logo />
          <p className="mt-3 max-w-sm text-sm text-slate-700 dark:text-slate-300">
            The marketplace for ready-made AI agents. Find, buy and deploy agents built by independent creators.
          </p>
          <h2 className="mt-6 flex items-center gap-2 text-sm font-semibold">
            <Mail aria-hidden="true" className="size-4" /> Stay up to date
          </h2>
          <NewsletterForm flash={flash?.scope === 'newsletter' ? flash : null} />
        </div>
        {LINK_GROUPS.map((group) => (
          <nav key={group.title} aria-label={group.title}>
            <h2 className="text-sm font-semibold">{group.title}</h2>
            <LinkList
              links={group.links}
              className="mt-3 space-y-1"
              linkClassName="inline-block py-1 text-sm text-slate-700 hover:text-brand-700 dark:text-slate-300 dark:hover:text-brand-300"
            />
          </nav>
        ))}
      </div>
      <div className="border-t border-slate-200 py-6 text-center text-sm text-slate-700 dark:border-slate-800 dark:text-slate-300">
        © {new Date().getFullYear()} AgentMarket. Open source under the MIT licence.
      </div>
    </footer>
  );
}
