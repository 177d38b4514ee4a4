import { X } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';

/**
 * A dialog whose open state lives in the URL: the page renders it while its parameter is there,
 * and closing it is a link to `closeHref` (the same page without that parameter).
 *
 * Without JavaScript it is a server-rendered `<dialog open>` over the page, closed by its Close
 * link. With JavaScript it becomes modal (`showModal()`): the page behind is inert, so Tab stays
 * inside; Escape navigates to `closeHref`; and focus returns to what opened it (the link that was
 * focused when it opened) once it is gone.
 */
export function ModalDialog({
  titleId,
  closeHref,
  children,
}: {
  /** The id of the dialog's heading, its accessible name. */
  titleId: string;
  closeHref: string;
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
    panel.current?.focus();
    return () => {
      if (opener && opener !== document.body && opener.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      open
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        void close();
      }}
      // Escape pressed again without a user action in between may close it outright. (Reopening
      // it as modal in the effect queues a close event too, while it is open again: ignored.)
      onClose={(event) => {
        if (!event.currentTarget.open) void close();
      }}
      className="fixed inset-0 z-50 m-0 h-full max-h-none w-full max-w-none overflow-y-auto bg-slate-950/60 p-0 text-inherit backdrop:bg-transparent"
    >
      <div className="flex min-h-full items-start justify-center p-4 sm:items-center">
        <div
          ref={panel}
          tabIndex={-1}
          className="relative w-full max-w-md rounded-2xl bg-white p-6 shadow-xl outline-none dark:bg-slate-900"
        >
          <Link
            to={closeHref}
            preventScrollReset
            className="absolute top-3 right-3 flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
            aria-label="Close"
          >
            <X aria-hidden="true" className="size-5" />
          </Link>
          {children}
        </div>
      </div>
    </dialog>
  );
}
