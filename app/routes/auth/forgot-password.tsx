import { GeneralErrorBoundary } from '~/components/error-boundary';
import { AuthPage } from '~/components/auth/auth-page';
import { errorMeta, pageMeta } from '~/lib/meta';
import { actionOrLoaderHeaders } from '~/lib/route-headers';
import { requestPasswordReset, redirectIfSignedIn } from '~/server/auth.server';
import type { Route } from './+types/forgot-password';

export function loader(args: Route.LoaderArgs) {
  redirectIfSignedIn(args);
  return null;
}

export const action = (args: Route.ActionArgs) => requestPasswordReset(args);

export const headers = actionOrLoaderHeaders;

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Reset your password', 'Sign in to AgentMarket or create an account to buy and sell AI agents.');

export default function ForgotPasswordPage() {
  return <AuthPage mode="forgot-password" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
