/**
 * The dashboard's sub-routes (specification §2 "Dashboard shell"): path, label, the permission
 * that guards it, and for the sections not built yet the 'Coming Soon' sentence. The server
 * guards, the side navigation and the overview's Quick Actions all read this one table.
 */
import { hasPermission, type Permission, type Role } from '~/lib/permissions';

export const DASHBOARD_PATH = '/dashboard';

export interface DashboardSection {
  path: string;
  label: string;
  /** `null`: every signed-in user (the overview). */
  permission: Permission | null;
  /** What the page will do, shown until a later issue builds it. */
  comingSoon?: string;
}

export const DASHBOARD_SECTIONS = [
  { path: '/dashboard', label: 'Overview', permission: null },
  {
    path: '/dashboard/collection',
    label: 'My Collection',
    permission: 'view_order_history',
    comingSoon: 'Your purchased AI agents, ready to download and rate, will be collected here.',
  },
  {
    path: '/dashboard/purchases',
    label: 'Purchase History',
    permission: 'view_order_history',
    comingSoon: 'Every purchase with its status, amount and seller contact will be listed and filterable here.',
  },
  {
    path: '/dashboard/agents',
    label: 'My AI Agents',
    permission: 'manage_products',
    comingSoon: 'You will create, edit, publish and archive the AI agents you sell here.',
  },
  {
    path: '/dashboard/upload',
    label: 'Upload Agent',
    permission: 'upload_ai_agents',
    comingSoon: 'You will upload a new AI agent package with its listing details here.',
  },
  {
    path: '/dashboard/analytics',
    label: 'Sales Analytics',
    permission: 'view_sales_analytics',
    comingSoon: 'Charts of your views, sales and conversion per agent will appear here.',
  },
  {
    path: '/dashboard/earnings',
    label: 'Earnings',
    permission: 'view_sales_analytics',
    comingSoon: 'Your revenue, fees and payouts over time will be summarised here.',
  },
  {
    path: '/dashboard/messages',
    label: 'Messages',
    permission: 'communicate_customers',
    comingSoon: 'Conversations with the buyers of your agents will be gathered here.',
  },
  {
    path: '/dashboard/reviews',
    label: 'Reviews',
    permission: 'respond_to_reviews',
    comingSoon: 'You will read and answer the reviews of your agents here.',
  },
  {
    path: '/dashboard/users',
    label: 'User Management',
    permission: 'manage_users',
    comingSoon: 'Administrators will search accounts, change account types and ban users here.',
  },
  {
    path: '/dashboard/moderation',
    label: 'Content Moderation',
    permission: 'moderate_content',
    comingSoon: 'Reported agents and reviews will be queued here for approval or removal.',
  },
  {
    path: '/dashboard/system',
    label: 'System Settings',
    permission: 'access_system_settings',
  },
  {
    path: '/dashboard/reports',
    label: 'Reports',
    permission: 'generate_reports',
    comingSoon: 'You will generate and export sales, user and content reports here.',
  },
  {
    path: '/dashboard/platform-analytics',
    label: 'Platform Analytics',
    permission: 'view_admin_analytics',
    comingSoon: 'Traffic, growth and revenue trends for the whole marketplace will be charted here.',
  },
  {
    path: '/dashboard/database',
    label: 'Database',
    permission: 'database_operations',
    comingSoon: 'Backups, migrations and data health checks will be run from here.',
  },
  {
    path: '/dashboard/disputes',
    label: 'Disputes',
    permission: 'handle_disputes',
    comingSoon: 'Refund requests and disputes between buyers and sellers will be resolved here.',
  },
  {
    path: '/dashboard/policies',
    label: 'Policies',
    permission: 'manage_policies',
    comingSoon: 'The marketplace policies and terms that sellers and buyers accept will be edited here.',
  },
  { path: '/dashboard/membership', label: 'Membership', permission: 'manage_profile' },
  { path: '/dashboard/billing', label: 'Billing', permission: 'manage_profile' },
] as const satisfies readonly DashboardSection[];

export type DashboardSectionPath = (typeof DASHBOARD_SECTIONS)[number]['path'];

/** The sections whose permission `role` holds, in navigation order. */
export function visibleSections(role: Role | null | undefined): DashboardSection[] {
  return DASHBOARD_SECTIONS.filter((section) => section.permission === null || hasPermission(role, section.permission));
}

function normalize(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.replace(/\/+$/, '') : pathname;
}

/**
 * Highlighted when the current path starts with the section's path (segment by segment, so
 * `/dashboard/agents` does not light up on `/dashboard/agentsx`); the overview only on an exact match.
 */
export function isSectionActive(sectionPath: string, pathname: string): boolean {
  const current = normalize(pathname);
  if (sectionPath === DASHBOARD_PATH) return current === DASHBOARD_PATH;
  return current === sectionPath || current.startsWith(`${sectionPath}/`);
}

/** The section a URL belongs to (the deepest match), or `null`. */
export function findSection(pathname: string): DashboardSection | null {
  const current = normalize(pathname);
  return (
    DASHBOARD_SECTIONS.find((section) => section.path !== DASHBOARD_PATH && isSectionActive(section.path, current)) ??
    (current === DASHBOARD_PATH ? DASHBOARD_SECTIONS[0] : null)
  );
}

export interface QuickAction {
  path: string;
  label: string;
  description: string;
  permission: Permission;
}

/** The overview's Quick Actions (§2), in the specification's order. */
export const QUICK_ACTIONS: readonly QuickAction[] = [
  {
    path: '/marketplace',
    label: 'Browse Marketplace',
    description: 'Discover new AI agents',
    permission: 'browse_products',
  },
  {
    path: '/dashboard/collection',
    label: 'My Collection',
    description: 'Your purchased agents',
    permission: 'view_order_history',
  },
  {
    path: '/dashboard/upload',
    label: 'Upload Agent',
    description: 'List a new AI agent',
    permission: 'upload_ai_agents',
  },
  {
    path: '/dashboard/analytics',
    label: 'View Analytics',
    description: 'Track your sales',
    permission: 'view_sales_analytics',
  },
  {
    path: '/dashboard/messages',
    label: 'Messages',
    description: 'Talk to your customers',
    permission: 'communicate_customers',
  },
  { path: '/dashboard/users', label: 'Manage Users', description: 'Accounts and roles', permission: 'manage_users' },
  {
    path: '/dashboard/moderation',
    label: 'Moderation',
    description: 'Review reported content',
    permission: 'moderate_content',
  },
  {
    path: '/dashboard/system',
    label: 'System Settings',
    description: 'Platform configuration',
    permission: 'access_system_settings',
  },
];

export const MAX_QUICK_ACTIONS = 6;

/** At most six Quick Actions, each only with its permission. */
export function quickActionsFor(role: Role | null | undefined): QuickAction[] {
  return QUICK_ACTIONS.filter((action) => hasPermission(role, action.permission)).slice(0, MAX_QUICK_ACTIONS);
}
