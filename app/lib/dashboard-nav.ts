/**
 * The dashboard's sections (docs/product.md, "Dashboard"), declared once: path, label, the
 * permission that guards it, and the route module that draws it. Everything else is derived from
 * this table:
 * - the route list (app/routes/dashboard/routes.ts maps each section to one route),
 * - the server guard (`requireSection` in app/server/guards.server.ts finds the section of
 *   the matched route and checks its permission, in every page loader and, through the layout's
 *   middleware, before every action),
 * - the side navigation (icons keyed by path in app/components/dashboard/side-nav.tsx) and the
 *   permissions of the overview's Quick Actions.
 *
 * Imported by routes.ts when the route config is evaluated: relative imports only, no UI code.
 */
import { hasPermission, type Permission, type Role } from './permissions';

export const DASHBOARD_PATH = '/dashboard';

export interface DashboardSection {
  path: string;
  label: string;
  /** `null`: every signed-in user (the overview). */
  permission: Permission | null;
  /** The route module that draws it (relative to `app/`); two sections may share one. */
  file: `routes/dashboard/${string}.tsx`;
  /**
   * Left out of the navigation for those who hold this permission: they have the same page under
   * another entry (a seller's Messages lists the conversations they started as a buyer too).
   */
  hiddenWith?: Permission;
}

export const DASHBOARD_SECTIONS = [
  { path: '/dashboard', label: 'Overview', permission: null, file: 'routes/dashboard/overview.tsx' },
  {
    path: '/dashboard/collection',
    label: 'My Collection',
    permission: 'view_order_history',
    file: 'routes/dashboard/collection.tsx',
  },
  {
    path: '/dashboard/purchases',
    label: 'Purchase History',
    permission: 'view_order_history',
    file: 'routes/dashboard/purchases.tsx',
  },
  {
    path: '/dashboard/agents',
    label: 'My AI Agents',
    permission: 'manage_products',
    file: 'routes/dashboard/agents.tsx',
  },
  {
    path: '/dashboard/upload',
    label: 'Upload Agent',
    permission: 'upload_ai_agents',
    file: 'routes/dashboard/upload.tsx',
  },
  {
    path: '/dashboard/analytics',
    label: 'Sales Analytics',
    permission: 'view_sales_analytics',
    file: 'routes/dashboard/analytics.tsx',
  },
  {
    path: '/dashboard/earnings',
    label: 'Earnings',
    permission: 'view_sales_analytics',
    file: 'routes/dashboard/earnings.tsx',
  },
  {
    path: '/dashboard/messages',
    label: 'Messages',
    permission: 'communicate_customers',
    file: 'routes/dashboard/messages.tsx',
  },
  // A buyer's conversations with sellers: the same page, under the permission every role holds
  // (ADR 071). Sellers and admins reach theirs through Messages above.
  {
    path: '/dashboard/conversations',
    label: 'Messages',
    permission: 'view_order_history',
    file: 'routes/dashboard/messages.tsx',
    hiddenWith: 'communicate_customers',
  },
  {
    path: '/dashboard/reviews',
    label: 'Reviews',
    permission: 'respond_to_reviews',
    file: 'routes/dashboard/reviews.tsx',
  },
  {
    // API tokens, the seller API's documentation and publishing from CI (ADR 074).
    path: '/dashboard/developers',
    label: 'Developers',
    permission: 'manage_products',
    file: 'routes/dashboard/developers.tsx',
  },
  {
    path: '/dashboard/users',
    label: 'User Management',
    permission: 'manage_users',
    file: 'routes/dashboard/users.tsx',
  },
  {
    path: '/dashboard/moderation',
    label: 'Content Moderation',
    permission: 'moderate_content',
    file: 'routes/dashboard/moderation.tsx',
  },
  {
    path: '/dashboard/system',
    label: 'System Settings',
    permission: 'access_system_settings',
    file: 'routes/dashboard/system.tsx',
  },
  {
    path: '/dashboard/reports',
    label: 'Reports',
    permission: 'generate_reports',
    file: 'routes/dashboard/reports.tsx',
  },
  {
    path: '/dashboard/platform-analytics',
    label: 'Platform Analytics',
    permission: 'view_admin_analytics',
    file: 'routes/dashboard/platform-analytics.tsx',
  },
  {
    path: '/dashboard/database',
    label: 'Database',
    permission: 'database_operations',
    file: 'routes/dashboard/database.tsx',
  },
  {
    path: '/dashboard/disputes',
    label: 'Disputes',
    permission: 'handle_disputes',
    file: 'routes/dashboard/disputes.tsx',
  },
  {
    path: '/dashboard/policies',
    label: 'Policies',
    permission: 'manage_policies',
    file: 'routes/dashboard/policies.tsx',
  },
  {
    path: '/dashboard/membership',
    label: 'Membership',
    permission: 'manage_profile',
    file: 'routes/dashboard/membership.tsx',
  },
  { path: '/dashboard/billing', label: 'Billing', permission: 'manage_profile', file: 'routes/dashboard/billing.tsx' },
] as const satisfies readonly DashboardSection[];

export type DeclaredSection = (typeof DASHBOARD_SECTIONS)[number];
export type DashboardSectionPath = DeclaredSection['path'];

function mayOpen(role: Role | null | undefined, section: DashboardSection): boolean {
  return section.permission === null || hasPermission(role, section.permission);
}

/** The navigation's entries for `role`: the sections it may open, in order, one per page. */
export function visibleSections(role: Role | null | undefined): DeclaredSection[] {
  return DASHBOARD_SECTIONS.filter(
    (section: DashboardSection) =>
      mayOpen(role, section) && !(section.hiddenWith && hasPermission(role, section.hiddenWith)),
  );
}

/**
 * Where `role` reads a conversation: under Messages with `communicate_customers`, else under
 * the buyers' entry (both are the same page; this one is in the navigation).
 */
export function conversationsPath(role: Role | null | undefined): '/dashboard/messages' | '/dashboard/conversations' {
  return hasPermission(role, 'communicate_customers') ? '/dashboard/messages' : '/dashboard/conversations';
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

/**
 * A Quick Action into a dashboard section: it takes the section's permission, so a shortcut is
 * offered exactly to those the section's guard lets in.
 */
function sectionAction(path: DashboardSectionPath, label: string, description: string): QuickAction {
  const permission = DASHBOARD_SECTIONS.find((section) => section.path === path)?.permission;
  if (!permission) throw new Error(`${path}: a Quick Action needs a section with a permission`);
  return { path, label, description, permission };
}

/** The overview's Quick Actions (at most six), in the order they are shown. */
export const QUICK_ACTIONS: readonly QuickAction[] = [
  {
    path: '/marketplace',
    label: 'Browse Marketplace',
    description: 'Discover new AI agents',
    permission: 'browse_products',
  },
  sectionAction('/dashboard/collection', 'My Collection', 'Your purchased agents'),
  sectionAction('/dashboard/upload', 'Upload Agent', 'List a new AI agent'),
  sectionAction('/dashboard/analytics', 'View Analytics', 'Track your sales'),
  sectionAction('/dashboard/messages', 'Messages', 'Talk to your customers'),
  sectionAction('/dashboard/users', 'Manage Users', 'Accounts and roles'),
  sectionAction('/dashboard/moderation', 'Moderation', 'Review reported content'),
  sectionAction('/dashboard/system', 'System Settings', 'Platform configuration'),
];

export const MAX_QUICK_ACTIONS = 6;

/** At most six Quick Actions, each only with its permission. */
export function quickActionsFor(role: Role | null | undefined): QuickAction[] {
  return QUICK_ACTIONS.filter((action) => hasPermission(role, action.permission)).slice(0, MAX_QUICK_ACTIONS);
}
