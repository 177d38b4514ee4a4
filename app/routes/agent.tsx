import { data } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import type { NotFoundError } from '~/lib/route-errors';

export function loader() {
  const payload: NotFoundError = { type: 'not-found', title: 'Agent not found' };
  throw data(payload, { status: 404 });
}

export default function AgentPage() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
