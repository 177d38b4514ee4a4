import { useRouteLoaderData } from 'react-router';
import type { Viewer } from '~/lib/viewer';

/** The viewer as the root loader hands it to the browser. */
export type PublicViewer = Viewer;

export function useOptionalViewer(): PublicViewer | null {
  const data = useRouteLoaderData('root') as { viewer: PublicViewer | null } | undefined;
  return data?.viewer ?? null;
}

export function useViewer(): PublicViewer {
  const viewer = useOptionalViewer();
  if (!viewer) throw new Error('useViewer() needs a signed-in user; guard the route on the server.');
  return viewer;
}
