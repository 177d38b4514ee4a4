/**
 * The create-react-router template's root (React Router 7): a document layout, the outlet and a
 * plain error boundary. No middleware, no security headers, no header or footer: what a default
 * app pays to render a page.
 */
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from 'react-router';
import '~/styles/app.css';

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: { error: unknown }) {
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : 'Unexpected error';
  return (
    <main>
      <h1>{message}</h1>
    </main>
  );
}
