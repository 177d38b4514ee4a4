import { X } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
/** A field to type into: what `initialFocus="first-field"` focuses on opening. */
const FIELD = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])';

/**
 * Tab from the last control goes to the first, Shift+Tab from the first to the last: the page
 * behind a modal dialog is inert, but the browser would otherwise move focus out to its own UI.
 */
function keepTabInside(event: KeyboardEvent, root: HTMLElement) {
  if (event.key !== 'Tab') return;
  const focusable = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !root.contains(active) || active === root)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !root.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

/** `withoutScript="page"` before it is modal: in the page's flow, under the header, no backdrop. */
const PAGE_WITHOUT_SCRIPT =
  '[&:not(:modal)]:static [&:not(:modal)]:z-auto [&:not(:modal)]:h-auto [&:not(:modal)]:overflow-visible [&:not(:modal)]:bg-transparent';

/**
 * A dialog that lives in the URL: the page renders it while its parameter is there (so it works
 * without JavaScript, as a server-rendered `<dialog open>` over the page), and closing it is a
 * link to `closeHref`, the same page without that parameter. Used by the sign-in dialog, Contact
 * Seller and the order summary (a child route: its URL is the parameter, the agent page's the close).
 *
 * Without JavaScript the page behind it is hidden (app.css), so Tab cannot reach what the backdrop
 * covers; with `withoutScript="page"` (a dialog with a URL of its own, the order summary) it is the
 * page instead: the site's header and footer stay, the page it would cover is not drawn, and the
 * dialog takes its place. With JavaScript the native dialog becomes modal (`showModal()`): the page
 * behind is inert, so Tab and Shift+Tab cycle inside; Escape navigates to `closeHref`; and when it
 * is gone focus returns to the element with id `returnFocusId`, else to whatever had focus when it
 * opened. On opening, focus goes to the panel (its title is read first), or with
 * `initialFocus="first-field"` to its first field (a form to fill in, such as signing in).
 */
export function UrlDialog({
  title,
  titleId,
  describedBy,
  closeHref,
  closeLabel = 'Close',
  returnFocusId,
  initialFocus = 'panel',
  width = 'max-w-md',
  withoutScript = 'overlay',
  children,
}: {
  title: ReactNode;
  titleId: string;
  describedBy?: string;
  closeHref: string;
  closeLabel?: string;
  returnFocusId?: string;
  initialFocus?: 'panel' | 'first-field';
  width?: 'max-w-md' | 'max-w-lg';
  /** Without JavaScript: over its page, which is hidden (`overlay`), or the page's content itself (`page`). */
  withoutScript?: 'overlay' | 'page';
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const dialog = useRef<HTMLDialogElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const close = () => navigate(closeHref, { preventScrollReset: true });

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // Server-rendered open, but not modal: reopen it as a modal one.
    if (!element.matches(':modal')) {
      element.close();
      element.showModal();
    }
    const field = initialFocus === 'first-field' ? panel.current?.querySelector<HTMLElement>(FIELD) : null;
    (field ?? panel.current)?.focus();
    const onKeyDown = (event: KeyboardEvent) => keepTabInside(event, element);
    element.addEventListener('keydown', onKeyDown);
    return () => {
      element.removeEventListener('keydown', onKeyDown);
      // After the navigation that closed it has rendered the page again.
      requestAnimationFrame(() => {
        const target = (returnFocusId && document.getElementById(returnFocusId)) || opener;
        if (target && target !== document.body && target.isConnected) target.focus();
      });
    };
  }, [returnFocusId, initialFocus]);

  return (
    <dialog
      ref={dialog}
      open
      data-url-dialog={withoutScript}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        void close();
      }}
      // Escape pressed again without a user action in between may close it outright. (Reopening
      // it as modal in the effect queues a close event too, while it is open again: ignored.)
      onClose={(event) => {
        if (!event.currentTarget.open) void close();
      }}
      className={`fixed inset-0 z-50 m-0 h-full max-h-none w-full max-w-none overflow-y-auto bg-slate-950/60 p-0 text-inherit backdrop:bg-transparent ${withoutScript === 'page' ? PAGE_WITHOUT_SCRIPT : ''}`}
    >
      <div className="flex min-h-full items-start justify-center p-4 sm:items-center">
        <div
          ref={panel}
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
    </dialog>
  );
}
