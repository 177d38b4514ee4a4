import { useRouteLoaderData } from 'react-router';
import type { Permission, Role } from '~/lib/permissions';

/** The viewer's public shape, as the root loader returns it. */
export interface PublicViewer {
  id: string;
  email: string;
  username: string;
  avatarUrl: string | null;
  role: Role;
  permissions: Permission[];
  createdAt: string;
}

export function useOptionalViewer(): PublicViewer | null {
  const data = useRouteLoaderData('root') as { viewer: PublicViewer | null } | undefined;
  return data?.viewer ?? null;
}

export function useViewer(): PublicViewer {
  const viewer = useOptionalViewer();
  if (!viewer) throw new Error('useViewer() needs a signed-in user; guard the route on the server.');
  return viewer;
}
