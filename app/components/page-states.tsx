/**
 * The states a list page shows in place of its results: nothing yet ('No agents found', 'No
 * agents in your collection yet') and a failed read ('Error Loading Marketplace', 'Error Loading
 * Collection'). One look for every page.
 */
import { AlertTriangle } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonClass } from '~/components/ui/button';

/** What a page says instead of its content: an icon, the heading, a sentence, and what to do next. */
export interface PageStateProps {
  icon: ReactNode;
  title: string;
  message: string;
  children?: ReactNode;
}

/** Nothing to list: an icon, the heading, a sentence, and where to go next (`children`). */
export function EmptyState({ icon, title, message, children }: PageStateProps) {
  return (
    <div className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 px-6 py-16 text-center dark:border-slate-700">
      <span className="text-slate-500">{icon}</span>
      <h2 className="mt-4 text-xl font-semibold">{title}</h2>
      <p className="mt-2 text-slate-700 dark:text-slate-300">{message}</p>
      {children}
    </div>
  );
}

/**
 * A failed read shown inside its page, with the server's message and Try Again: a plain link
 * that reloads the page, with or without JavaScript. The loader answers 503 alongside.
 */
export function LoadError({ title, message, retryHref }: { title: string; message: string; retryHref: string }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center rounded-2xl border border-red-300 px-6 py-16 text-center dark:border-red-800"
    >
      <AlertTriangle aria-hidden="true" className="size-10 text-red-700 dark:text-red-300" />
      <h2 className="mt-4 text-xl font-semibold">{title}</h2>
      <p className="mt-2 text-slate-700 dark:text-slate-300">{message}</p>
      <a href={retryHref} className={`${buttonClass('primary')} mt-6`}>
        Try Again
      </a>
    </div>
  );
}
