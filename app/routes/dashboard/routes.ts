import { index, layout, prefix, route, type RouteConfigEntry } from '@react-router/dev/routes';
import { DASHBOARD_PATH, DASHBOARD_SECTIONS, type DashboardSection } from '../../lib/dashboard-nav';

/**
 * The dashboard's routes (`/dashboard/*`), listed in app/routes.ts and derived from the one
 * declaration of its sections (app/lib/dashboard-nav.ts): one route per section, in its order, no
 * other but the few sub-pages below. The layout's middleware and each page's loader guard with `requireSection`, which reads
 * the permission from the same declaration. Sections that share a module get one route id each.
 */
function sectionRoute(section: DashboardSection): RouteConfigEntry {
  if (section.path === DASHBOARD_PATH) return index(section.file);
  const segment = section.path.slice(DASHBOARD_PATH.length + 1);
  const shared = DASHBOARD_SECTIONS.filter((other: DashboardSection) => other.file === section.file).length > 1;
  return shared ? route(segment, section.file, { id: `routes/dashboard/${segment}` }) : route(segment, section.file);
}

/**
 * Pages inside a section that are not sections themselves (no navigation entry). Each belongs to
 * the section whose path it starts with (`findSection`), so `requireSection` and the layout's
 * middleware guard it with that section's permission; the page adds its own checks (ownership).
 */
export const DASHBOARD_SUBPAGES: RouteConfigEntry[] = [
  // /dashboard/agents/:agentId/edit, in 'My AI Agents' (manage_products).
  route('agents/:agentId/edit', 'routes/dashboard/agent-edit.tsx'),
  // /dashboard/earnings/export, in 'Earnings' (view_sales_analytics): the sales as a CSV file.
  route('earnings/export', 'routes/dashboard/earnings-export.ts'),
  // /dashboard/membership/confirm?tier=…, in 'Membership' (manage_profile): confirm a plan change.
  route('membership/confirm', 'routes/dashboard/membership-confirm.tsx'),
  // /dashboard/billing/payment-methods/new, in 'Billing' (manage_profile): Add Payment Method.
  route('billing/payment-methods/new', 'routes/dashboard/payment-method-new.tsx'),
  // /dashboard/billing/invoices/:invoiceId, in 'Billing' (manage_profile): one printable invoice.
  route('billing/invoices/:invoiceId', 'routes/dashboard/billing-invoice.tsx'),
  // /dashboard/billing/export, in 'Billing' (manage_profile): Download All, the history as a CSV file.
  route('billing/export', 'routes/dashboard/billing-export.ts'),
  // /dashboard/database/backup, in 'Database' (database_operations): POST downloads a backup.
  route('database/backup', 'routes/dashboard/database-backup.ts'),
  // /dashboard/reports/export, in 'Reports' (generate_reports): a report as a CSV file.
  route('reports/export', 'routes/dashboard/reports-export.ts'),
  // /dashboard/policies/:document, in 'Policies' (manage_policies): publish a new version.
  route('policies/:document', 'routes/dashboard/policy-edit.tsx'),
  // /dashboard/developers/webhooks/:endpointId, in 'Developers' (manage_products): an endpoint's deliveries.
  route('developers/webhooks/:endpointId', 'routes/dashboard/webhook-deliveries.tsx'),
  // One conversation, in 'Messages' (communicate_customers) or, for buyers, in their own entry
  // (view_order_history); /…/new?agent=… writes the first message to an agent's seller.
  route('messages/new', 'routes/dashboard/conversation-new.tsx', { id: 'routes/dashboard/messages/new' }),
  route('conversations/new', 'routes/dashboard/conversation-new.tsx', { id: 'routes/dashboard/conversations/new' }),
  route('messages/:conversationId', 'routes/dashboard/conversation.tsx', { id: 'routes/dashboard/messages/thread' }),
  route('conversations/:conversationId', 'routes/dashboard/conversation.tsx', {
    id: 'routes/dashboard/conversations/thread',
  }),
];

export const dashboardRoutes: RouteConfigEntry[] = [
  ...prefix(DASHBOARD_PATH.slice(1), [
    layout('routes/dashboard/layout.tsx', [...DASHBOARD_SECTIONS.map(sectionRoute), ...DASHBOARD_SUBPAGES]),
  ]),
];
