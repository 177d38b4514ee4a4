import { ChevronDown, LayoutDashboard, LogOut, Menu, Search, Settings, ShoppingCart, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Form, Link, NavLink, useLocation } from 'react-router';
import { buttonClass } from '~/components/ui/button';
import { Avatar } from '~/components/ui/avatar';
import { LinkList } from '~/components/layout/link-list';
import { Logo } from '~/components/layout/logo';
import { ThemeToggle } from '~/components/layout/theme-toggle';
import { SearchCombobox } from '~/components/search/search-combobox';
import { signInHref } from '~/lib/auth-modal';
import type { Viewer } from '~/lib/viewer';

const SCROLL_THRESHOLD_PX = 20;

const NAV_LINKS = [
  { to: '/marketplace', label: 'Marketplace', onDashboard: true },
  { to: '/categories', label: 'Categories', onDashboard: true },
  { to: '/become-seller', label: 'Become a Seller', onDashboard: false },
];

export function Header({ viewer, cartCount }: { viewer: Viewer | null; cartCount: number }) {
  const location = useLocation();
  const isDashboard = location.pathname === '/dashboard' || location.pathname.startsWith('/dashboard/');
  const links = NAV_LINKS.filter((link) => !isDashboard || link.onDashboard);
  const isScrolled = useIsScrolled();

  return (
    <header
      className={`sticky top-0 z-40 border-b transition-all print:hidden ${
        isScrolled
          ? 'border-slate-200 bg-white/95 shadow-sm backdrop-blur dark:border-slate-800 dark:bg-slate-950/95'
          : 'border-transparent bg-white dark:bg-slate-950'
      }`}
      data-scrolled={isScrolled ? 'true' : 'false'}
    >
      <div className="container-page flex h-16 items-center gap-4">
        <Logo compact />

        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {links.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              className={({ isActive }) =>
                `rounded-lg px-3 py-2 text-sm font-medium ${
                  isActive
                    ? 'text-brand-700 dark:text-brand-300'
                    : 'text-slate-700 hover:text-slate-950 dark:text-slate-300 dark:hover:text-white'
                }`
              }
            >
              {link.label}
            </NavLink>
          ))}
        </nav>

        <SearchForm className="ml-auto hidden max-w-xs flex-1 lg:flex" id="header-search" />

        <div className="ml-auto flex items-center gap-2 lg:ml-0">
          <ThemeToggle />
          <Link
            to="/cart"
            aria-label={cartCount === 1 ? 'Cart, 1 agent' : `Cart, ${cartCount} agents`}
            className="relative inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
          >
            <ShoppingCart aria-hidden="true" className="size-5" />
            {cartCount > 0 ? (
              <span
                aria-hidden="true"
                className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-brand-600 px-1 text-center text-xs leading-5 font-semibold text-white"
              >
                {cartCount}
              </span>
            ) : null}
          </Link>
          {viewer ? (
            <UserMenu viewer={viewer} isDashboard={isDashboard} />
          ) : (
            <Link to={signInHref({ over: location })} className={buttonClass('primary', 'sm')} preventScrollReset>
              Sign In
            </Link>
          )}
          <MobileMenu links={links} />
        </div>
      </div>
    </header>
  );
}

function SearchForm({ className, id }: { className: string; id: string }) {
  return (
    <Form method="get" action="/marketplace" role="search" aria-label="Search AI agents" className={className}>
      <label htmlFor={id} className="sr-only">
        Search AI agents
      </label>
      <div className="relative w-full">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
        />
        <SearchCombobox
          id={id}
          name="q"
          placeholder="Search AI agents"
          className="h-10 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm placeholder:text-slate-500 dark:border-slate-700 dark:bg-slate-900 dark:placeholder:text-slate-400"
        />
      </div>
    </Form>
  );
}

function UserMenu({ viewer, isDashboard }: { viewer: Viewer; isDashboard: boolean }) {
  return (
    <details className="group relative">
      <summary
        className="flex min-h-10 cursor-pointer items-center gap-2 rounded-lg px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800"
        aria-label={`Account menu for ${viewer.username}`}
      >
        <Avatar name={viewer.username} url={viewer.avatarUrl} />
        <span className="hidden max-w-32 truncate text-sm font-medium sm:inline">{viewer.username}</span>
        <ChevronDown aria-hidden="true" className="size-4 transition-transform group-open:rotate-180" />
      </summary>
      <div className="absolute right-0 mt-2 w-56 rounded-xl border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <p className="truncate px-3 py-2 text-xs text-slate-600 dark:text-slate-400">{viewer.email}</p>
        <Link to="/profile" className={MENU_ITEM}>
          <Settings aria-hidden="true" className="size-4" /> Profile &amp; Settings
        </Link>
        {isDashboard ? null : (
          <Link to="/dashboard" className={MENU_ITEM}>
            <LayoutDashboard aria-hidden="true" className="size-4" /> Dashboard
          </Link>
        )}
        <Form method="post" action="/auth/sign-out">
          <button type="submit" className={`${MENU_ITEM} w-full`}>
            <LogOut aria-hidden="true" className="size-4" /> Sign Out
          </button>
        </Form>
      </div>
    </details>
  );
}

const MENU_ITEM =
  'flex min-h-10 items-center gap-2 rounded-lg px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800';

function MobileMenu({ links }: { links: typeof NAV_LINKS }) {
  return (
    <details className="group md:hidden">
      <summary
        className="flex size-10 cursor-pointer items-center justify-center rounded-lg hover:bg-slate-100 dark:hover:bg-slate-800"
        aria-label="Menu"
      >
        <Menu aria-hidden="true" className="size-5 group-open:hidden" />
        <X aria-hidden="true" className="hidden size-5 group-open:block" />
      </summary>
      <div className="absolute inset-x-0 top-16 border-b border-slate-200 bg-white p-4 shadow-lg dark:border-slate-800 dark:bg-slate-950">
        <SearchForm className="mb-3 flex" id="mobile-search" />
        <nav aria-label="Mobile">
          <LinkList links={links} className="flex flex-col gap-1" linkClassName={MENU_ITEM} />
        </nav>
      </div>
    </details>
  );
}

/** True once the page has scrolled past the threshold (a JavaScript-only enhancement). */
function useIsScrolled(): boolean {
  const [isScrolled, setIsScrolled] = useState(false);
  useEffect(() => {
    const update = () => setIsScrolled(window.scrollY > SCROLL_THRESHOLD_PX);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);
  return isScrolled;
}
