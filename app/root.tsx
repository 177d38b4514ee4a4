import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  data,
  useLocation,
  useNavigation,
  useRouteLoaderData,
} from 'react-router';
import { AuthDialog } from '~/components/auth/auth-dialog';
import { ClientHintCheck, ThemeFromStorage, ZodJitless } from '~/components/dashboard/client-hint-check';
import { FlashToast } from '~/components/layout/flash-toast';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { Footer } from '~/components/layout/footer';
import { Header } from '~/components/layout/header';
import { useNonce } from '~/components/nonce';
import { Stylesheet } from '~/components/stylesheet';
import { connectionContext, viewerContext } from '~/context';
import { parseAuthMode } from '~/lib/auth-modal';
import { SITE_NAME, errorMeta, pageMeta } from '~/lib/meta';
import { useFocusAfterNavigation, useFocusHeadingAfterSignIn } from '~/lib/use-focus-after-navigation';
import { storageOrigin } from '~/server/account.server';
import { googleSignInAvailable } from '~/server/auth-admin.server';
import { getTheme, takeFlash } from '~/server/cookies.server';
import { checkRequestInput } from '~/server/request-input.server';
import { maintenanceMiddleware, maintenanceNotice } from '~/server/maintenance.server';
import { guestCartMiddleware, headerCart } from '~/server/cart.server';
import { supabaseMiddleware } from '~/server/viewer.server';
import type { Route } from './+types/root';
import stylesheet from '~/styles/app.css?url';
import interLatin from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url';

export const middleware: Route.MiddlewareFunction[] = [
  checkRequestInput,
  supabaseMiddleware,
  maintenanceMiddleware,
  guestCartMiddleware,
];

/** The default title and description; on an error, a title that names it. */
export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta(SITE_NAME, 'The marketplace for ready-made AI agents.');

export const links: Route.LinksFunction = () => [
  // The stylesheet is in <Layout>'s <head>, written into the document (ADR 029).
  // The text font's Latin file, fetched with the stylesheet rather than after it (font-display: swap).
  { rel: 'preload', href: interLatin, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const [theme, { flash, setCookie }, googleSignIn, maintenance, cart] = await Promise.all([
    getTheme(request),
    takeFlash(request),
    // Only the sign-in forms (for visitors) need it: "Continue with Google" only when it can work.
    viewer ? false : googleSignInAvailable(context.get(connectionContext)),
    maintenanceNotice(context),
    headerCart(request, context),
  ]);
  const headers = new Headers();
  if (setCookie) headers.append('Set-Cookie', setCookie);
  if (cart.setCookie) headers.append('Set-Cookie', cart.setCookie);
  return data(
    {
      theme,
      flash,
      viewer,
      googleSignIn,
      maintenance,
      // Where pictures stored as Storage paths are read (components/ui/avatar.tsx).
      storageOrigin: storageOrigin(context.get(connectionContext)),
      cartCount: cart.count,
    },
    { headers },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>('root');
  const nonce = useNonce();
  const theme = rootData?.theme ?? 'system';
  const location = useLocation();
  const viewer = rootData?.viewer ?? null;
  const authMode = viewer ? null : parseAuthMode(new URLSearchParams(location.search).get('auth'));
  const flash = rootData?.flash ?? null;
  useFocusAfterNavigation('main');
  useFocusHeadingAfterSignIn('main', viewer?.id ?? null);
  return (
    // The class may differ from the server's: the theme saved in local storage wins (app/lib/theme.ts).
    <html lang="en" className={theme} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <ThemeFromStorage nonce={nonce} />
        <ZodJitless nonce={nonce} />
        <ClientHintCheck nonce={nonce} />
        <Stylesheet href={stylesheet} nonce={nonce} />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-lg bg-brand-600 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Skip to content
        </a>
        <NavigationProgress />
        <Header viewer={viewer} cartCount={rootData?.cartCount ?? 0} />
        {rootData?.maintenance ? (
          <p
            role="status"
            className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
          >
            {rootData.maintenance}
          </p>
        ) : null}
        {flash && !flash.scope ? <FlashToast flash={flash} /> : null}
        <main id="main" className="flex-1 outline-none">
          {children}
        </main>
        <Footer flash={flash} />
        {authMode ? <AuthDialog mode={authMode} /> : null}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

/**
 * A thin bar at the top while a client-side navigation loads (JavaScript only). Guarded
 * destinations say what the server is doing: checking access, or loading the profile.
 */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  const path = navigation.location.pathname;
  const label =
    path === '/profile' || path.startsWith('/profile/')
      ? 'Loading your profile...'
      : path === '/dashboard' || path.startsWith('/dashboard/')
        ? 'Verifying access...'
        : 'Loading...';
  return (
    <div className="fixed inset-x-0 top-0 z-50">
      <div role="progressbar" aria-label={label} className="h-1 overflow-hidden bg-brand-100">
        <div className="h-full w-1/3 animate-pulse bg-brand-600" />
      </div>
      {label === 'Loading...' ? null : (
        <p role="status" className="mx-auto mt-2 w-fit rounded-full bg-slate-900 px-3 py-1 text-xs text-white shadow">
          {label}
        </p>
      )}
    </div>
  );
}
