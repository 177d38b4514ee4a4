import { Outlet, isRouteErrorResponse, useNavigation } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { CollectionSkeleton } from '~/components/dashboard/collection-parts';
import { NavDrawer, SideNav } from '~/components/dashboard/side-nav';
import { COLLECTION_PATH } from '~/lib/collection';
import { pageMeta } from '~/lib/meta';
import { useOptionalViewer } from '~/lib/use-viewer';
import { dashboardMiddleware, requireUser } from '~/server/guards.server';
import type { Route } from './+types/layout';

/** Guards every dashboard action by its section's permission (app/lib/dashboard-nav.ts). */
export const middleware: Route.MiddlewareFunction[] = [dashboardMiddleware];

export function loader(args: Route.LoaderArgs) {
  requireUser(args);
  return null;
}

/** Pages set their own title; this one serves the error screens the layout's boundary renders. */
export const meta: Route.MetaFunction = ({ error }) => {
  if (isRouteErrorResponse(error) && error.status === 403) {
    return pageMeta('Access Denied', 'You do not have permission to open this dashboard page.');
  }
  if (isRouteErrorResponse(error) && error.status === 404) {
    return pageMeta('Page not found', 'This dashboard page does not exist.');
  }
  return pageMeta('Dashboard', 'Your AgentMarket dashboard.');
};

/** Pages with their own placeholder while a client-side navigation to them loads (My Collection: six skeleton cards). */
const LOADING_SCREENS: Partial<Record<string, () => React.ReactNode>> = {
  [COLLECTION_PATH]: CollectionSkeleton,
};

export default function DashboardLayout() {
  const navigation = useNavigation();
  const pendingPath = navigation.state === 'loading' ? navigation.location.pathname : null;
  const isLoading = pendingPath?.startsWith('/dashboard') ?? false;
  const LoadingScreen = pendingPath ? LOADING_SCREENS[pendingPath] : undefined;
  if (LoadingScreen) {
    return (
      <DashboardShell>
        <LoadingScreen />
      </DashboardShell>
    );
  }
  return (
    <DashboardShell>
      <div aria-busy={isLoading || undefined} className={isLoading ? 'opacity-60 transition-opacity' : undefined}>
        <Outlet />
      </div>
    </DashboardShell>
  );
}

/** Side navigation and content area; the error boundary keeps it around an Access Denied page. */
function DashboardShell({ children }: { children: React.ReactNode }) {
  const viewer = useOptionalViewer();
  if (!viewer) return <>{children}</>;
  return (
    <div className="container-page flex flex-col gap-6 py-6 md:grid md:grid-cols-[15rem_minmax(0,1fr)] md:gap-8 md:py-10 print:block print:py-0">
      <NavDrawer viewer={viewer} />
      <aside className="hidden md:block print:hidden">
        <SideNav viewer={viewer} />
      </aside>
      <div className="min-w-0">{children}</div>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <DashboardShell>
      <GeneralErrorBoundary />
    </DashboardShell>
  );
}
