import type { Permission, Role } from '~/lib/permissions';

/** The signed-in user as the app sees it: identity, public profile, role and permissions. */
export interface Viewer {
  id: string;
  email: string;
  username: string;
  avatarUrl: string | null;
  role: Role;
  permissions: Permission[];
  createdAt: string;
}
