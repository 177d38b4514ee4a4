import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  ROLES,
  ROLE_PERMISSIONS,
  deniedMessage,
  hasAllPermissions,
  hasAnyPermission,
  hasFullAccess,
  hasMinRole,
  hasPermission,
  meetsRequirement,
  toRole,
  type Permission,
} from './permissions';

// The lists exactly as docs/product.md ("Roles and permissions") spells them.
const BUYER =
  'browse_products search_products place_orders manage_cart view_order_history manage_profile submit_reviews rate_products'.split(
    ' ',
  );
const SELLER_ADDS =
  'list_products manage_products process_orders view_sales_analytics manage_inventory upload_ai_agents communicate_customers set_pricing create_promotions view_seller_dashboard manage_agent_listings respond_to_reviews'.split(
    ' ',
  );
const ADMIN_ADDS =
  'manage_users moderate_content access_system_settings generate_reports handle_disputes manage_policies view_admin_analytics configure_system database_operations override_actions manage_platform view_all_data delete_any_content ban_users financial_operations'.split(
    ' ',
  );

const expected: Record<string, string[]> = {
  buyer: BUYER,
  seller: [...BUYER, ...SELLER_ADDS],
  admin: [...BUYER, ...SELLER_ADDS, ...ADMIN_ADDS],
};

describe('permissions', () => {
  it('holds exactly the documented lists per role', () => {
    for (const role of ROLES) expect([...ROLE_PERMISSIONS[role]].sort()).toEqual([...expected[role]!].sort());
    expect(ALL_PERMISSIONS).toHaveLength(35);
  });

  it('answers hasPermission for every role and permission', () => {
    for (const role of ROLES) {
      for (const permission of ALL_PERMISSIONS) {
        expect(hasPermission(role, permission)).toBe(expected[role]!.includes(permission));
      }
    }
  });

  it('treats a missing or unknown role as buyer', () => {
    expect(toRole(undefined)).toBe('buyer');
    expect(toRole('superuser')).toBe('buyer');
    expect(hasPermission(null, 'browse_products')).toBe(true);
    expect(hasPermission(undefined, 'upload_ai_agents')).toBe(false);
  });

  it('compares role ranks', () => {
    const table: [string, string, boolean][] = [
      ['buyer', 'buyer', true],
      ['buyer', 'seller', false],
      ['buyer', 'admin', false],
      ['seller', 'buyer', true],
      ['seller', 'seller', true],
      ['seller', 'admin', false],
      ['admin', 'buyer', true],
      ['admin', 'seller', true],
      ['admin', 'admin', true],
    ];
    for (const [role, minimum, result] of table) {
      expect(hasMinRole(toRole(role), toRole(minimum))).toBe(result);
    }
  });

  it('checks any and all of a list', () => {
    const mixed: Permission[] = ['browse_products', 'manage_users'];
    expect(hasAnyPermission('buyer', mixed)).toBe(true);
    expect(hasAllPermissions('buyer', mixed)).toBe(false);
    expect(hasAllPermissions('admin', mixed)).toBe(true);
    expect(hasAnyPermission('seller', ['manage_users', 'ban_users'])).toBe(false);
    expect(hasAnyPermission('buyer', [])).toBe(false);
    expect(hasAllPermissions('buyer', [])).toBe(true);
  });

  it('gives Full Access to admins only', () => {
    expect(ROLES.map(hasFullAccess)).toEqual([false, false, true]);
  });

  it('evaluates requirements and words the denial as docs/product.md does', () => {
    expect(meetsRequirement('seller', { role: 'seller' })).toBe(true);
    expect(meetsRequirement('buyer', { permission: 'manage_users' })).toBe(false);
    expect(meetsRequirement('admin', { allOf: ['manage_users', 'ban_users'] })).toBe(true);
    expect(meetsRequirement('seller', { anyOf: ['manage_users', 'upload_ai_agents'] })).toBe(true);
    expect(deniedMessage('buyer', { role: 'admin' })).toBe('This page requires admin role or higher. Your role: buyer');
    expect(deniedMessage('buyer', { permission: 'manage_users' })).toBe(
      "You don't have the required permission: manage_users",
    );
    expect(deniedMessage('buyer', { allOf: ['manage_users', 'ban_users'] })).toBe(
      'You need all of these permissions: manage_users, ban_users',
    );
    expect(deniedMessage('buyer', { anyOf: ['manage_users'] })).toBe('You need any of these permissions: manage_users');
  });
});
