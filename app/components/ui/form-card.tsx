import { useId, type ReactNode } from 'react';

/**
 * A page that is one small form (sign-in, a new password, the first administrator, the second
 * factor): a centred card with its heading, an optional sentence under it, and the form.
 */
export function FormCard({ title, intro, children }: { title: ReactNode; intro?: ReactNode; children: ReactNode }) {
  const titleId = useId();
  return (
    <div className="container-page flex justify-center py-16">
      <section
        aria-labelledby={titleId}
        className="w-full max-w-md rounded-2xl border border-slate-200 p-6 shadow-sm dark:border-slate-700"
      >
        <h1 id={titleId} className={`text-2xl font-bold ${intro ? 'mb-2' : 'mb-5'}`}>
          {title}
        </h1>
        {intro ? <p className="mb-5 text-sm text-slate-700 dark:text-slate-300">{intro}</p> : null}
        {children}
      </section>
    </div>
  );
}
