import { AlertTriangle, Lock, SearchX, ServerCrash, Wrench } from 'lucide-react';
import { Link, isRouteErrorResponse, useLocation, useNavigate, useRouteError } from 'react-router';
import { buttonClass } from '~/components/ui/button';
import { type ROLE_LABEL } from '~/lib/permissions';
import { isAccessDenied, isBackendUnavailable, isMaintenance, isNotFound } from '~/lib/route-errors';
import type { PageStateProps } from '~/components/page-states';

/**
 * The one error boundary: expected errors (404, 403 Access Denied, 503) get their own screens;
 * anything else a friendly message with the status, and the stack only in development.
 */
export function GeneralErrorBoundary() {
  const error = useRouteError();

  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      const payload = isNotFound(error.data) ? error.data : null;
      return (
        <ErrorScreen
          icon={<SearchX aria-hidden="true" className="size-10" />}
          title={payload?.title ?? 'Page not found'}
          message={
            payload?.message ?? "We couldn't find the page you were looking for. It may have moved or never existed."
          }
        >
          <Link to="/" className={buttonClass('primary')}>
            Go to the home page
          </Link>
          <Link to="/marketplace" className={buttonClass('secondary')}>
            Browse the marketplace
          </Link>
        </ErrorScreen>
      );
    }
    if (error.status === 403 && isAccessDenied(error.data)) return <AccessDenied {...error.data} />;
    if (isMaintenance(error.data)) {
      return (
        <ErrorScreen
          icon={<Wrench aria-hidden="true" className="size-10" />}
          title="Down for maintenance"
          message={error.data.message}
        >
          <RetryLink />
        </ErrorScreen>
      );
    }
    if (isBackendUnavailable(error.data)) {
      return (
        <ErrorScreen
          icon={<ServerCrash aria-hidden="true" className="size-10" />}
          title="Service unavailable"
          message={error.data.message}
        >
          <RetryLink />
        </ErrorScreen>
      );
    }
    return (
      <ErrorScreen
        icon={<AlertTriangle aria-hidden="true" className="size-10" />}
        title={`Error ${error.status}`}
        message={
          typeof error.data === 'string' && error.data ? error.data : error.statusText || 'Something went wrong.'
        }
      >
        <RetryLink />
      </ErrorScreen>
    );
  }

  const stack = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  if (error instanceof Error) console.error(error);
  return (
    <ErrorScreen
      icon={<AlertTriangle aria-hidden="true" className="size-10" />}
      title="Something went wrong"
      message="An unexpected error occurred. Please try again."
    >
      <RetryLink />
      {stack ? (
        <pre className="mt-6 max-w-full overflow-auto rounded-lg bg-slate-100 p-4 text-left text-xs dark:bg-slate-900">
          {stack}
        </pre>
      ) : null}
    </ErrorScreen>
  );
}

function AccessDenied({
  message,
  role,
  requirement,
}: {
  message: string;
  role: keyof typeof ROLE_LABEL;
  requirement: object;
}) {
  const navigate = useNavigate();
  const required =
    'role' in requirement
      ? `${String(requirement.role)} role or higher`
      : 'permission' in requirement
        ? String(requirement.permission)
        : 'allOf' in requirement
          ? (requirement.allOf as string[]).join(', ')
          : (requirement as { anyOf: string[] }).anyOf.join(', ');
  return (
    <ErrorScreen icon={<Lock aria-hidden="true" className="size-10" />} title="Access Denied" message={message}>
      <dl className="grid w-full max-w-md grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-lg border border-slate-200 p-4 text-left text-sm dark:border-slate-700">
        <dt className="font-medium">Your role</dt>
        <dd>{role}</dd>
        <dt className="font-medium">Required</dt>
        <dd>{required}</dd>
      </dl>
      <div className="flex gap-3">
        {/* A link back works without JavaScript; with it, history.back() keeps the scroll position. */}
        <a
          href="/"
          className={buttonClass('secondary')}
          onClick={(event) => {
            event.preventDefault();
            navigate(-1);
          }}
        >
          Go Back
        </a>
        <Link to="/dashboard" className={buttonClass('primary')}>
          Dashboard
        </Link>
      </div>
    </ErrorScreen>
  );
}

function RetryLink() {
  // A plain link (not a router Link) reloads the page, with or without JavaScript.
  const location = useLocation();
  return (
    <a href={`${location.pathname}${location.search}`} className={buttonClass('primary')}>
      Try Again
    </a>
  );
}

export function ErrorScreen({ icon, title, message, children }: PageStateProps) {
  return (
    <section
      className="container-page flex flex-col items-center gap-4 py-24 text-center"
      aria-labelledby="error-title"
    >
      <span className="text-slate-600 dark:text-slate-400">{icon}</span>
      <h1 id="error-title" className="text-3xl font-bold">
        {title}
      </h1>
      <p className="max-w-xl text-slate-700 dark:text-slate-300">{message}</p>
      <div className="mt-2 flex flex-wrap items-center justify-center gap-3">{children}</div>
    </section>
  );
}
