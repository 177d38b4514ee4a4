import { GeneralErrorBoundary } from '~/components/error-boundary';
import { AuthPage } from '~/components/auth/auth-page';
import { errorMeta, pageMeta } from '~/lib/meta';
import { actionOrLoaderHeaders } from '~/lib/route-headers';
import { signUp, redirectIfSignedIn } from '~/server/auth.server';
import type { Route } from './+types/sign-up';

export function loader(args: Route.LoaderArgs) {
  redirectIfSignedIn(args);
  return null;
}

export const action = (args: Route.ActionArgs) => signUp(args);

export const headers = actionOrLoaderHeaders;

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Create Account', 'Sign in to AgentMarket or create an account to buy and sell AI agents.');

export default function SignUpPage() {
  return <AuthPage mode="sign-up" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
