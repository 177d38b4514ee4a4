import { describe, expect, it } from 'vitest';
import {
  conversationsPath,
  DASHBOARD_SECTIONS,
  MAX_QUICK_ACTIONS,
  QUICK_ACTIONS,
  findSection,
  isSectionActive,
  quickActionsFor,
  visibleSections,
} from './dashboard-nav';
import { hasPermission, ROLES } from './permissions';

const paths = (items: readonly { path: string }[]) => items.map((item) => item.path.replace('/dashboard', '') || '/');

describe('visibleSections', () => {
  it('shows a buyer only the buyer entries', () => {
    expect(paths(visibleSections('buyer'))).toEqual([
      '/',
      '/collection',
      '/purchases',
      '/conversations',
      '/membership',
      '/billing',
    ]);
  });

  it('adds the seller entries for sellers', () => {
    expect(paths(visibleSections('seller'))).toEqual([
      '/',
      '/collection',
      '/purchases',
      '/agents',
      '/upload',
      '/analytics',
      '/earnings',
      '/messages',
      '/reviews',
      '/developers',
      '/membership',
      '/billing',
    ]);
  });

  it('shows an admin every entry but the buyers’ Messages', () => {
    expect(visibleSections('admin')).toEqual(DASHBOARD_SECTIONS.filter((s) => s.path !== '/dashboard/conversations'));
  });

  it('treats a missing role as a buyer', () => {
    expect(visibleSections(null)).toEqual(visibleSections('buyer'));
  });

  it.each(ROLES)('lists for %s only entries whose permission is held', (role) => {
    for (const section of visibleSections(role)) {
      expect(section.permission === null || hasPermission(role, section.permission)).toBe(true);
    }
  });
});

describe('isSectionActive', () => {
  it('highlights the overview only on an exact match', () => {
    expect(isSectionActive('/dashboard', '/dashboard')).toBe(true);
    expect(isSectionActive('/dashboard', '/dashboard/')).toBe(true);
    expect(isSectionActive('/dashboard', '/dashboard/billing')).toBe(false);
  });

  it('highlights other entries when the path starts with theirs', () => {
    expect(isSectionActive('/dashboard/agents', '/dashboard/agents')).toBe(true);
    expect(isSectionActive('/dashboard/agents', '/dashboard/agents/new')).toBe(true);
    expect(isSectionActive('/dashboard/agents', '/dashboard/agents/')).toBe(true);
    expect(isSectionActive('/dashboard/agents', '/dashboard/agentsx')).toBe(false);
    expect(isSectionActive('/dashboard/analytics', '/dashboard/platform-analytics')).toBe(false);
    expect(isSectionActive('/dashboard/billing', '/dashboard')).toBe(false);
  });
});

describe('findSection', () => {
  it('finds the section of a URL, deepest first', () => {
    expect(findSection('/dashboard')?.label).toBe('Overview');
    expect(findSection('/dashboard/users')?.permission).toBe('manage_users');
    expect(findSection('/dashboard/platform-analytics')?.permission).toBe('view_admin_analytics');
    expect(findSection('/dashboard/agents/42')?.path).toBe('/dashboard/agents');
    expect(findSection('/dashboard/nope')).toBeNull();
  });

  it('covers every dashboard section with its permission', () => {
    const table = Object.fromEntries(DASHBOARD_SECTIONS.map((section) => [section.path, section.permission]));
    expect(table).toEqual({
      '/dashboard': null,
      '/dashboard/collection': 'view_order_history',
      '/dashboard/purchases': 'view_order_history',
      '/dashboard/membership': 'manage_profile',
      '/dashboard/billing': 'manage_profile',
      '/dashboard/agents': 'manage_products',
      '/dashboard/upload': 'upload_ai_agents',
      '/dashboard/analytics': 'view_sales_analytics',
      '/dashboard/earnings': 'view_sales_analytics',
      '/dashboard/messages': 'communicate_customers',
      '/dashboard/conversations': 'view_order_history',
      '/dashboard/reviews': 'respond_to_reviews',
      '/dashboard/developers': 'manage_products',
      '/dashboard/users': 'manage_users',
      '/dashboard/moderation': 'moderate_content',
      '/dashboard/system': 'access_system_settings',
      '/dashboard/reports': 'generate_reports',
      '/dashboard/platform-analytics': 'view_admin_analytics',
      '/dashboard/database': 'database_operations',
      '/dashboard/disputes': 'handle_disputes',
      '/dashboard/policies': 'manage_policies',
    });
  });
});

describe('quickActionsFor', () => {
  it('gives a buyer the marketplace and the collection', () => {
    expect(quickActionsFor('buyer').map((action) => action.path)).toEqual(['/marketplace', '/dashboard/collection']);
  });

  it('gives a seller the seller actions too', () => {
    expect(quickActionsFor('seller').map((action) => action.path)).toEqual([
      '/marketplace',
      '/dashboard/collection',
      '/dashboard/upload',
      '/dashboard/analytics',
      '/dashboard/messages',
    ]);
  });

  it('takes the permission of the section each dashboard shortcut opens', () => {
    for (const action of QUICK_ACTIONS.filter((item) => item.path.startsWith('/dashboard'))) {
      const section = DASHBOARD_SECTIONS.find((item) => item.path === action.path);
      expect([action.path, action.permission]).toEqual([action.path, section?.permission]);
    }
  });

  it('caps an admin at six', () => {
    const actions = quickActionsFor('admin');
    expect(actions).toHaveLength(MAX_QUICK_ACTIONS);
    expect(actions.at(-1)?.path).toBe('/dashboard/users');
  });
});

describe('the declaration', () => {
  it('gives every role one Messages entry: buyers their own, sellers and admins the Messages section', () => {
    const messages = (role: 'buyer' | 'seller' | 'admin') =>
      visibleSections(role)
        .filter((section) => section.label === 'Messages')
        .map((section) => section.path);
    expect(messages('buyer')).toEqual(['/dashboard/conversations']);
    expect(messages('seller')).toEqual(['/dashboard/messages']);
    expect(messages('admin')).toEqual(['/dashboard/messages']);
    expect([conversationsPath('buyer'), conversationsPath('seller')]).toEqual([
      '/dashboard/conversations',
      '/dashboard/messages',
    ]);
  });

  it('declares each path once, directly under /dashboard', () => {
    const sectionPaths = DASHBOARD_SECTIONS.map((section) => section.path);
    expect(new Set(sectionPaths).size).toBe(sectionPaths.length);
    for (const path of sectionPaths) expect(path).toMatch(/^\/dashboard(\/[a-z-]+)?$/);
  });
});
