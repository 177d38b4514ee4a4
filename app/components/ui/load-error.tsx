import { AlertTriangle } from 'lucide-react';
import { buttonClass } from '~/components/ui/button';

/**
 * A failed read shown inside its page ('Error Loading Marketplace', 'Error Loading Purchase
 * History'), with the page's filters still around it and a Try Again link to the same URL.
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
      {/* A plain link reloads the page, with or without JavaScript. */}
      <a href={retryHref} className={`${buttonClass('primary')} mt-6`}>
        Try Again
      </a>
    </div>
  );
}
