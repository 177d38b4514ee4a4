import { X } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A dialog that lives in the URL (rendered by the server whenever its parameter is present, so
 * it works without JavaScript; closing is a link to the URL without it). With JavaScript: focus
 * moves into the panel, Tab and Shift+Tab stay inside it, Escape navigates to `closeHref`, and
 * on closing focus returns to the element with id `returnFocusId` (the control that opened it).
 */
function useUrlDialog<T extends HTMLElement>(closeHref: string, returnFocusId?: string) {
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

/**
 * The shell of a URL dialog: the backdrop, the panel (`role="dialog"`, `aria-modal`), its title
 * and a close link in the corner. Used by the sign-in dialog and Contact Seller.
 */
export function UrlDialog({
  title,
  titleId,
  describedBy,
  closeHref,
  closeLabel = 'Close',
  returnFocusId,
  width = 'max-w-md',
  children,
}: {
  title: ReactNode;
  titleId: string;
  describedBy?: string;
  closeHref: string;
  closeLabel?: string;
  returnFocusId?: string;
  width?: 'max-w-md' | 'max-w-lg';
  children: ReactNode;
}) {
  const panel = useUrlDialog<HTMLDivElement>(closeHref, returnFocusId);
  return (
    <div className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-slate-950/60 p-4 sm:items-center">
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        className={`relative w-full ${width} rounded-2xl bg-white p-6 text-slate-900 shadow-xl outline-none dark:bg-slate-900 dark:text-slate-100`}
      >
        <Link
          to={closeHref}
          preventScrollReset
          aria-label={closeLabel}
          className="absolute top-3 right-3 flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
        >
          <X aria-hidden="true" className="size-5" />
        </Link>
        <h2 id={titleId} className="pr-10 text-2xl font-bold">
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
