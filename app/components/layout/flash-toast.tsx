import { CheckCircle2, XCircle } from 'lucide-react';
import type { Flash } from '~/lib/flash';

/** A one-time message after a redirect ('Signed in successfully!'), announced to screen readers. */
export function FlashToast({ flash }: { flash: Flash }) {
  const isError = flash.kind === 'error';
  return (
    <div className="container-page mt-4">
      <p
        role={isError ? 'alert' : 'status'}
        className={`flex items-center gap-2 rounded-lg border px-4 py-3 text-sm ${
          isError
            ? 'border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200'
            : 'border-green-300 bg-green-50 text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-200'
        }`}
      >
        {isError ? (
          <XCircle aria-hidden="true" className="size-4" />
        ) : (
          <CheckCircle2 aria-hidden="true" className="size-4" />
        )}
        {flash.message}
      </p>
    </div>
  );
}
