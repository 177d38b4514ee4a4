import { useRouteLoaderData } from 'react-router';
import type { Viewer } from '~/lib/viewer';

/** The signed-in viewer as the root loader hands it to the browser, or null. */
export function useOptionalViewer(): Viewer | null {
  const data = useRouteLoaderData('root') as { viewer: Viewer | null } | undefined;
  return data?.viewer ?? null;
}
