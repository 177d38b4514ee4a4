import { Moon, Sun } from 'lucide-react';
import { useEffect } from 'react';
import { useFetcher, useLocation, useRouteLoaderData } from 'react-router';
import { ServerOnly } from 'remix-utils/server-only';
import { shareablePath } from '~/lib/shareable-path';
import { applyThemeClass, isThemeChoice, readStoredTheme, storeTheme } from '~/lib/theme';
import type { loader as rootLoader } from '~/root';

/**
 * Two buttons, one per target theme; CSS shows the one that switches away from the theme in
 * effect (including the system's), so the toggle is right without JavaScript. With JavaScript
 * the choice is applied at once and saved to local storage under `theme`, the store the
 * browser keeps, which the next page applies before its first paint (app/lib/theme.ts).
 */
export function ThemeToggle() {
  const fetcher = useFetcher();
  const location = useLocation();
  const serverTheme = useRouteLoaderData<typeof rootLoader>('root')?.theme ?? null;
  const pendingTheme = fetcher.formData?.get('theme');
  const { submit } = fetcher;

  useEffect(() => {
    if (!isThemeChoice(pendingTheme)) return;
    applyThemeClass(pendingTheme);
    storeTheme(pendingTheme);
  }, [pendingTheme]);

  // The saved choice is the initial value; when the cookie says otherwise, the cookie follows it.
  useEffect(() => {
    const stored = readStoredTheme();
    if (stored && stored !== serverTheme)
      void submit({ theme: stored }, { method: 'post', action: '/resources/theme' });
  }, [serverTheme, submit]);

  return (
    <fetcher.Form method="post" action="/resources/theme">
      <ServerOnly>{() => <input type="hidden" name="redirectTo" value={shareablePath(location)} />}</ServerOnly>
      <button
        type="submit"
        name="theme"
        value="dark"
        className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 dark:hidden"
        aria-label="Switch to dark theme"
        title="Switch to dark theme"
      >
        <Moon aria-hidden="true" className="size-5" />
      </button>
      <button
        type="submit"
        name="theme"
        value="light"
        className="hidden size-10 items-center justify-center rounded-lg text-slate-200 hover:bg-slate-800 dark:inline-flex"
        aria-label="Switch to light theme"
        title="Switch to light theme"
      >
        <Sun aria-hidden="true" className="size-5" />
      </button>
    </fetcher.Form>
  );
}
