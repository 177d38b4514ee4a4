/**
 * Where the browser reads an upload. Pictures are stored as their Storage path
 * (`/storage/v1/object/public/<bucket>/…`, the only kind the database takes): served by this site
 * with the embedded backend, by hosted Supabase's origin otherwise (the root loader's
 * `storageOrigin`, '' for this site). Any other source (the demo's `/thumbnails/` artwork) is
 * used as it is.
 */
import { useRouteLoaderData } from 'react-router';

export function storedImageSrc(url: string, origin: string): string {
  return url.startsWith('/storage/v1/') ? `${origin}${url}` : url;
}

/** `storedImageSrc` with this page's Storage origin. */
export function useStoredImage(): (url: string) => string {
  const origin = (useRouteLoaderData('root') as { storageOrigin?: string } | undefined)?.storageOrigin ?? '';
  return (url) => storedImageSrc(url, origin);
}
