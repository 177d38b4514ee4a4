import { data } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import type { NotFoundError } from '~/lib/route-errors';
import { pageMeta } from '~/lib/meta';

export function loader() {
  const payload: NotFoundError = { type: 'not-found' };
  throw data(payload, { status: 404 });
}

export const meta = () => pageMeta('Page not found', 'The page you were looking for does not exist.');

export default function NotFoundPage() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
