import { GeneralErrorBoundary } from '~/components/error-boundary';
import { pageMeta } from '~/lib/meta';
import { notFound } from '~/server/http-errors.server';

export function loader() {
  notFound();
}

export const meta = () => pageMeta('Page not found', 'The page you were looking for does not exist.');

export default function NotFoundPage() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
