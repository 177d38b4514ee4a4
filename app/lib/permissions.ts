/**
 * Roles, ranks and permissions (docs/product.md, "Roles and permissions"). Pure functions: the
 * server guards and what a page shows by permission both decide with these.
 */
export const ROLES = ['buyer', 'seller', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_RANK: Record<Role, number> = { buyer: 1, seller: 2, admin: 3 };

export const ROLE_LABEL: Record<Role, string> = { buyer: 'Buyer', seller: 'Seller', admin: 'Administrator' };

const BUYER_PERMISSIONS = [
  'browse_products',
  'search_products',
  'place_orders',
  'manage_cart',
  'view_order_history',
  'manage_profile',
  'submit_reviews',
  'rate_products',
] as const;

const SELLER_PERMISSIONS = [
  'list_products',
  'manage_products',
  'process_orders',
  'view_sales_analytics',
  'manage_inventory',
  'upload_ai_agents',
  'communicate_customers',
  'set_pricing',
  'create_promotions',
  'view_seller_dashboard',
  'manage_agent_listings',
  'respond_to_reviews',
] as const;

const ADMIN_PERMISSIONS = [
  'manage_users',
  'moderate_content',
  'access_system_settings',
  'generate_reports',
  'handle_disputes',
  'manage_policies',
  'view_admin_analytics',
  'configure_system',
  'database_operations',
  'override_actions',
  'manage_platform',
  'view_all_data',
  'delete_any_content',
  'ban_users',
  'financial_operations',
] as const;

export type Permission =
  (typeof BUYER_PERMISSIONS)[number] | (typeof SELLER_PERMISSIONS)[number] | (typeof ADMIN_PERMISSIONS)[number];

/** Each role holds its own permissions and those of every lower role. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  buyer: BUYER_PERMISSIONS,
  seller: [...BUYER_PERMISSIONS, ...SELLER_PERMISSIONS],
  admin: [...BUYER_PERMISSIONS, ...SELLER_PERMISSIONS, ...ADMIN_PERMISSIONS],
};

export const ALL_PERMISSIONS: readonly Permission[] = ROLE_PERMISSIONS.admin;

/** A missing or unknown role is a buyer. */
export function toRole(value: unknown): Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value) ? (value as Role) : 'buyer';
}

export function permissionsOf(role: Role | null | undefined): readonly Permission[] {
  return ROLE_PERMISSIONS[toRole(role)];
}

export function hasPermission(role: Role | null | undefined, permission: Permission): boolean {
  return permissionsOf(role).includes(permission);
}

export function hasAnyPermission(role: Role | null | undefined, permissions: readonly Permission[]): boolean {
  return permissions.some((permission) => hasPermission(role, permission));
}

export function hasAllPermissions(role: Role | null | undefined, permissions: readonly Permission[]): boolean {
  return permissions.every((permission) => hasPermission(role, permission));
}

export function hasMinRole(role: Role | null | undefined, minimum: Role): boolean {
  return ROLE_RANK[toRole(role)] >= ROLE_RANK[minimum];
}

/** Admin-level access earns the 'Full Access' badge. */
export function hasFullAccess(role: Role | null | undefined): boolean {
  return hasAnyPermission(role, ADMIN_PERMISSIONS);
}

/** What a guard requires: a minimum role, one permission, or all / any of a list. */
export type Requirement =
  { role: Role } | { permission: Permission } | { allOf: readonly Permission[] } | { anyOf: readonly Permission[] };

export function meetsRequirement(role: Role | null | undefined, requirement: Requirement): boolean {
  if ('role' in requirement) return hasMinRole(role, requirement.role);
  if ('permission' in requirement) return hasPermission(role, requirement.permission);
  if ('allOf' in requirement) return hasAllPermissions(role, requirement.allOf);
  return hasAnyPermission(role, requirement.anyOf);
}

/** The Access Denied message for a requirement the viewer does not meet. */
export function deniedMessage(role: Role, requirement: Requirement): string {
  if ('role' in requirement) return `This page requires ${requirement.role} role or higher. Your role: ${role}`;
  if ('permission' in requirement) return `You don't have the required permission: ${requirement.permission}`;
  if ('allOf' in requirement) return `You need all of these permissions: ${requirement.allOf.join(', ')}`;
  return `You need any of these permissions: ${requirement.anyOf.join(', ')}`;
}
