import {
  BarChart3,
  Ban,
  BookOpen,
  CreditCard,
  Crown,
  Database,
  DollarSign,
  FileText,
  Gavel,
  History,
  KeyRound,
  LayoutDashboard,
  LineChart,
  LogOut,
  type LucideIcon,
  Menu,
  MessageSquare,
  Package,
  Settings,
  ShieldCheck,
  Star,
  Upload,
  Users,
  X,
} from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Form, Link, useLocation } from 'react-router';
import { Badge } from '~/components/dashboard/status-badge';
import { Avatar } from '~/components/ui/avatar';
import { isSectionActive, visibleSections, type DashboardSectionPath } from '~/lib/dashboard-nav';
import { ROLE_LABEL, hasFullAccess } from '~/lib/permissions';
import type { Viewer } from '~/lib/viewer';

/** One icon per declared section: the type makes a new section without an icon a type error. */
const ICONS: Record<DashboardSectionPath, LucideIcon> = {
  '/dashboard': LayoutDashboard,
  '/dashboard/collection': BookOpen,
  '/dashboard/purchases': History,
  '/dashboard/agents': Package,
  '/dashboard/upload': Upload,
  '/dashboard/analytics': BarChart3,
  '/dashboard/earnings': DollarSign,
  '/dashboard/messages': MessageSquare,
  '/dashboard/developers': KeyRound,
  '/dashboard/conversations': MessageSquare,
  '/dashboard/reviews': Star,
  '/dashboard/users': Users,
  '/dashboard/moderation': Ban,
  '/dashboard/system': Settings,
  '/dashboard/reports': FileText,
  '/dashboard/platform-analytics': LineChart,
  '/dashboard/database': Database,
  '/dashboard/disputes': Gavel,
  '/dashboard/policies': ShieldCheck,
  '/dashboard/membership': Crown,
  '/dashboard/billing': CreditCard,
};

const ITEM =
  'flex min-h-10 items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-950 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-800 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white dark:aria-[current=page]:bg-brand-900 dark:aria-[current=page]:text-white';

/** The dashboard's side navigation: who is signed in, the entries they may open, sign out. */
export function SideNav({ viewer }: { viewer: Viewer }) {
  const { pathname } = useLocation();
  return (
    <div className="flex flex-col gap-4">
      <div className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
        <div className="flex items-center gap-3">
          <Avatar name={viewer.username} url={viewer.avatarUrl} />
          <p className="truncate font-semibold">{viewer.username}</p>
        </div>
        <div className="mt-2 flex flex-wrap gap-2">
          <Badge>{ROLE_LABEL[viewer.role]}</Badge>
          {hasFullAccess(viewer.role) ? <Badge tone="amber">Full Access</Badge> : null}
        </div>
      </div>
      <nav aria-label="Dashboard">
        <ul className="flex flex-col gap-1">
          {visibleSections(viewer.role).map((section) => {
            const Icon = ICONS[section.path];
            return (
              <li key={section.path}>
                <Link
                  to={section.path}
                  className={ITEM}
                  aria-current={isSectionActive(section.path, pathname) ? 'page' : undefined}
                >
                  <Icon aria-hidden="true" className="size-4 shrink-0" />
                  {section.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="flex flex-col gap-1 border-t border-slate-200 pt-4 dark:border-slate-800">
        {/* Upload Agent and User Management are sections above: no second entry to the same page. */}
        <Form method="post" action="/auth/sign-out">
          <button type="submit" className={`${ITEM} w-full`}>
            <LogOut aria-hidden="true" className="size-4" /> Sign Out
          </button>
        </Form>
      </div>
    </div>
  );
}

/**
 * Small screens: the navigation in a drawer that opens and closes with <details> (no JavaScript);
 * with JavaScript it also closes after a navigation.
 */
export function NavDrawer({ viewer }: { viewer: Viewer }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [pathname]);
  return (
    <details ref={ref} className="group relative md:hidden print:hidden">
      <summary
        aria-label="Dashboard menu"
        className="flex min-h-10 w-fit cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm font-medium dark:border-slate-700"
      >
        <Menu aria-hidden="true" className="size-4 group-open:hidden" />
        <X aria-hidden="true" className="hidden size-4 group-open:block" />
        Menu
      </summary>
      <div className="absolute top-full left-0 z-30 mt-2 max-h-[75vh] w-72 max-w-[85vw] overflow-y-auto rounded-xl border border-slate-200 bg-white p-4 shadow-xl dark:border-slate-800 dark:bg-slate-950">
        <SideNav viewer={viewer} />
      </div>
    </details>
  );
}
