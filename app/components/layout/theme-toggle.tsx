import { Moon, Sun } from 'lucide-react';
import { useEffect } from 'react';
import { useFetcher, useLocation } from 'react-router';
import { ServerOnly } from 'remix-utils/server-only';

/**
 * Two buttons, one per target theme; CSS shows the one that switches away from the theme in
 * effect (including the system's), so the toggle is right without JavaScript. With JavaScript
 * the choice is applied at once and mirrored to localStorage under `theme`.
 */
export function ThemeToggle() {
  const fetcher = useFetcher();
  const location = useLocation();
  const pendingTheme = fetcher.formData?.get('theme');

  useEffect(() => {
    if (pendingTheme !== 'light' && pendingTheme !== 'dark') return;
    const root = document.documentElement;
    root.classList.remove('light', 'dark', 'system');
    root.classList.add(pendingTheme);
    try {
      localStorage.setItem('theme', pendingTheme);
    } catch {
      // storage may be disabled; the cookie still holds the choice
    }
  }, [pendingTheme]);

  return (
    <fetcher.Form method="post" action="/resources/theme">
      <ServerOnly>
        {() => <input type="hidden" name="redirectTo" value={location.pathname + location.search} />}
      </ServerOnly>
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
