/**
 * The theme's two stores. The `am_theme` cookie lets the server render the right class from the
 * first byte, with or without JavaScript. The browser's own store is its local storage under
 * `theme`: the first theme is the one saved there, else dark if the system prefers a dark colour
 * scheme, else light (docs/product.md, "Theme"). With JavaScript the stored value wins: this
 * inline script in <head> applies it before the first paint, and the toggle copies it to the
 * cookie when the two differ (a switch just before a reload, whose request the reload cancelled;
 * cookies cleared). A switch made with JavaScript off reaches only the cookie, so a later visit
 * with JavaScript goes back to the choice stored in the browser, which comes first.
 */
export const THEME_STORAGE_KEY = 'theme';

/** The choices a visitor can make; without one, the system's preference applies. */
export const THEME_CHOICES = ['light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return THEME_CHOICES.includes(value as ThemeChoice);
}

/** The stored choice, or `null` (none, or storage disabled). Browser only. */
export function readStoredTheme(): ThemeChoice | null {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return isThemeChoice(value) ? value : null;
  } catch {
    return null;
  }
}

export function storeTheme(theme: ThemeChoice): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // storage may be disabled; the cookie still holds the choice
  }
}

/** Puts `theme` (or `system`) on <html>, the one class the stylesheet reads. */
export function applyThemeClass(theme: ThemeChoice | 'system'): void {
  const root = document.documentElement;
  if (root.classList.contains(theme)) return;
  root.classList.remove('light', 'dark', 'system');
  root.classList.add(theme);
}

/** The inline <head> script (it carries the CSP nonce): the stored choice, before the first paint. */
export const THEME_SCRIPT = `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t!=='light'&&t!=='dark')return;var c=document.documentElement.classList;if(c.contains(t))return;c.remove('light','dark','system');c.add(t)}catch(e){}})();`;
