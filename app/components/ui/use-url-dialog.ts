import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A dialog that lives in the URL (rendered by the server whenever its parameter is present, so
 * it works without JavaScript; closing is a link to the URL without it). With JavaScript: focus
 * moves into the panel, Tab and Shift+Tab stay inside it, Escape navigates to `closeHref`, and
 * on closing focus returns to the element with id `returnFocusId` (the control that opened it).
 */
export function useUrlDialog<T extends HTMLElement>(closeHref: string, returnFocusId?: string) {
  const panel = useRef<T>(null);
  const navigate = useNavigate();

  useEffect(() => {
    panel.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      const root = panel.current;
      if (!root) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        void navigate(closeHref, { preventScrollReset: true });
        return;
      }
      if (event.key !== 'Tab') return;
      const focusable = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) {
        event.preventDefault();
        root.focus();
        return;
      }
      const active = document.activeElement;
      if (event.shiftKey && (active === first || active === root || !root.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !root.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      if (returnFocusId) requestAnimationFrame(() => document.getElementById(returnFocusId)?.focus());
    };
  }, [closeHref, navigate, returnFocusId]);

  return panel;
}
