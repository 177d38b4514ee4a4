import { redirect } from 'react-router';
import { signInHref } from '~/lib/auth-modal';
import { startGoogleSignIn } from '~/server/auth.server';
import type { Route } from './+types/google';

export const action = (args: Route.ActionArgs) => startGoogleSignIn(args);

export function loader() {
  return redirect(signInHref());
}
