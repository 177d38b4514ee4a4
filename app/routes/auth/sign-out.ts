import { redirect } from 'react-router';
import { pendingSecondFactorContext, supabaseContext, viewerContext } from '~/context';
import { forgetViewer } from '~/server/viewer.server';
import type { Route } from './+types/sign-out';

/**
 * Sign-out is a POST. The session cookies are cleared by the client's SIGNED_OUT event (the
 * root middleware puts them on this response); even when the Auth service fails, the local
 * session goes and the browser lands on the home page.
 */
export async function action({ context }: Route.ActionArgs) {
  const { error } = await context.get(supabaseContext).auth.signOut({ scope: 'local' });
  const viewer = context.get(viewerContext) ?? context.get(pendingSecondFactorContext);
  if (viewer) forgetViewer(viewer.id);
  if (error) console.error('Sign-out failed at the Auth service:', error.message);
  return redirect('/');
}

export function loader() {
  return redirect('/');
}
