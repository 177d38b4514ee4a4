import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/**
 * The hint and error under a control with the id prefix `id`, and the `aria-describedby` that
 * points at them: for every labelled control (Field, text areas, selects, file inputs).
 */
export function fieldNotes(
  id: string,
  hint?: ReactNode,
  error?: string,
): { describedBy: string | undefined; notes: ReactNode } {
  return {
    describedBy: [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined,
    notes: (
      <>
        {hint ? (
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
      </>
    ),
  };
}

/** The look of a multi-line text box under a label. */
export const TEXT_AREA_CLASS =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-950';

/** What ties a control to its label, hint and error (`Labelled` hands it to the control). */
export interface ControlLinks {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * One control under its label, with its hint and error below, wired through `aria-describedby`:
 * `children` renders the control (input, text area, select) with the links it is given.
 */
export function Labelled({
  label,
  hint,
  error,
  className,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: (links: ControlLinks) => ReactNode;
}) {
  const id = useId();
  const { describedBy, notes } = fieldNotes(id, hint, error);
  return (
    <div className={className || undefined}>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {notes}
    </div>
  );
}

/** A labelled input with its hint and error wired through aria-describedby. */
export function Field({
  label,
  hint,
  error,
  className = '',
  ...inputProps
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode; error?: string }) {
  return (
    <Labelled label={label} hint={hint} error={error} className={className}>
      {(links) => (
        <input
          {...links}
          className="mt-1 block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm placeholder:text-slate-500 disabled:bg-slate-100 disabled:text-slate-600 aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-950 dark:placeholder:text-slate-400 dark:disabled:bg-slate-800 dark:disabled:text-slate-300"
          {...inputProps}
        />
      )}
    </Labelled>
  );
}

/** A form-level message: errors as an alert, successes as a status, with optional hints and a note under them. */
export function FormMessage({
  kind,
  message,
  hints,
  note,
}: {
  kind: 'error' | 'success';
  message: string;
  hints?: string[];
  note?: string;
}) {
  const isError = kind === 'error';
  return (
    <div
      role={isError ? 'alert' : 'status'}
      className={`rounded-lg border p-3 text-sm ${
        isError
          ? 'border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200'
          : 'border-green-300 bg-green-50 text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-200'
      }`}
    >
      <p>{message}</p>
      {hints && hints.length > 0 ? (
        <ul className="mt-2 list-disc pl-5">
          {hints.map((hint) => (
            <li key={hint}>{hint}</li>
          ))}
        </ul>
      ) : null}
      {note ? <p className="mt-2 border-t border-current/20 pt-2 text-xs font-medium">{note}</p> : null}
    </div>
  );
}

export function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
    />
  );
}
