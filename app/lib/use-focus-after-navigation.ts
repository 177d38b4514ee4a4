import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * After a client-side navigation to another page, a keyboard user's focus would be lost when the
 * control they used is gone (a card's link, a dashboard tile): focus falls back to the document
 * and the browser's next Tab starts from where that control was, or leaves the page. A full page
 * load starts from the top instead; this does the equivalent: when focus was lost, it moves to
 * `<main>` (focusable by script only while it has focus, no ring), so the next Tab reaches the new
 * page's first control and Shift+Tab the header. Focus on a control that is still there (the header's links) stays put;
 * changes of the query alone (filters, dialogs in the URL) are not page changes.
 */
export function useFocusAfterNavigation(mainId: string) {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const main = document.getElementById(mainId);
    if (!main) return;
    main.setAttribute('tabindex', '-1');
    main.addEventListener('blur', () => main.removeAttribute('tabindex'), { once: true });
    main.focus({ preventScroll: true });
  }, [pathname, mainId]);
}

/**
 * After signing in (the viewer goes from nobody to someone, with JavaScript): focus goes to the main
 * heading of the page the visitor landed on, so a keyboard or screen reader user starts there, told
 * where they are, rather than on the document or on a link that opened the sign-in dialog. The
 * heading is focusable by script only while it has focus (no ring: it is not a control). Runs a frame
 * later than the dialog's own focus return, which it replaces. Without JavaScript the signed-in page
 * is a new page load, which starts at the top as any other.
 */
export function useFocusHeadingAfterSignIn(mainId: string, viewerId: string | null) {
  const previous = useRef(viewerId);
  useEffect(() => {
    const signedIn = previous.current === null && viewerId !== null;
    previous.current = viewerId;
    if (!signedIn) return;
    const frame = requestAnimationFrame(() => {
      const heading = document.getElementById(mainId)?.querySelector<HTMLElement>('h1');
      if (!heading) return;
      heading.setAttribute('tabindex', '-1');
      heading.addEventListener('blur', () => heading.removeAttribute('tabindex'), { once: true });
      heading.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [mainId, viewerId]);
}
