/**
 * The parts of the admin pages (/dashboard/users, /dashboard/moderation): a search form (GET,
 * state in the URL), the form that asks for a reason (a POST form that works without
 * JavaScript and posts through a fetcher with it), and the audit log.
 */
import { useId, type ReactNode } from 'react';
import { Form, Link, useFetcher } from 'react-router';
import { buttonClass, type ButtonVariant } from '~/components/ui/button';
import { FormMessage } from '~/components/ui/field';
import { formatDate } from '~/lib/dashboard-format';
import { fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import { ReasonField } from '~/components/dashboard/reason-field';
import { useHrefWith } from '~/lib/href-with';
import type { AuditEntry } from '~/server/admin.server';
import { SubmitButton } from '~/components/ui/submit-button';

const INPUT_CLASS =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 text-sm aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-950';

interface SearchFormProps {
  label: string;
  /** The URL parameter of the search, and of the page to reset (`page`, `rpage`). */
  name: string;
  pageName: string;
  value: string;
  maxLength: number;
  /** Parameters of the page's other lists to keep. */
  keep?: Record<string, string>;
}

export function AdminSearchForm({ label, name, pageName, value, maxLength, keep = {} }: SearchFormProps) {
  const id = useId();
  const hrefWith = useHrefWith();
  return (
    <Form method="get" role="search" aria-label={label} className="flex flex-wrap items-end gap-3">
      {Object.entries(keep).map(([key, kept]) => (
        <input key={key} type="hidden" name={key} value={kept} />
      ))}
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="block text-sm font-medium">
          {label}
        </label>
        <input
          id={id}
          type="search"
          name={name}
          defaultValue={value}
          maxLength={maxLength}
          className={`${INPUT_CLASS} h-11`}
        />
      </div>
      <button type="submit" className={buttonClass('primary', 'md')}>
        Search
      </button>
      {value ? (
        <Link to={hrefWith({ [name]: null, [pageName]: null })} className={buttonClass('ghost', 'md')}>
          Clear
        </Link>
      ) : null}
    </Form>
  );
}

interface ReasonFormProps {
  title: string;
  /** The POST target: the page's URL with the form open, so a refusal shows it again. */
  action: string;
  intent: string;
  hidden: Record<string, string>;
  submitLabel: string;
  variant?: ButtonVariant;
  hint: string;
  /** The last answer of the action without JavaScript, if it was for this form. */
  result: FormResult | null | undefined;
  children?: ReactNode;
}

/** A change that needs a reason (3–500 characters), kept in the audit log. */
export function ReasonForm({
  title,
  action,
  intent,
  hidden,
  submitLabel,
  variant = 'danger',
  hint,
  result,
  children,
}: ReasonFormProps) {
  const fetcher = useFetcher<FormResult>();
  const current = fetcher.data ?? (fieldValue(result, 'intent') === intent ? result : null);
  const notice = formNotice(current);
  const busy = fetcher.state !== 'idle';
  const id = useId();
  return (
    <fetcher.Form method="post" action={action} aria-labelledby={`${id}-title`} className="space-y-3">
      <h3 id={`${id}-title`} className="font-semibold">
        {title}
      </h3>
      {notice ? <FormMessage {...notice} /> : null}
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      <ReasonField label="Reason" hint={hint} rows={2} result={current} />
      <SubmitButton pending={busy} variant={variant} size="sm">
        {submitLabel}
      </SubmitButton>
    </fetcher.Form>
  );
}

/** The panel under a row with its forms, and the way to close it. */
export function ActionPanel({ label, closeHref, children }: { label: string; closeHref: string; children: ReactNode }) {
  return (
    <div
      role="group"
      aria-label={label}
      className="grid gap-6 border-t border-slate-200 bg-slate-50 p-4 md:grid-cols-2 dark:border-slate-700 dark:bg-slate-900"
    >
      {children}
      <div className="md:col-span-2">
        <Link to={closeHref} preventScrollReset className={buttonClass('ghost', 'sm')}>
          Close
        </Link>
      </div>
    </div>
  );
}

export function AuditLog({ entries, timeZone, empty }: { entries: AuditEntry[]; timeZone: string; empty: string }) {
  return (
    <section aria-labelledby="audit-log" className="flex flex-col gap-3">
      <h2 id="audit-log" className="text-xl font-semibold">
        Audit log
      </h2>
      {entries.length === 0 ? (
        <p className="rounded-xl border border-slate-200 p-6 text-slate-700 dark:border-slate-700 dark:text-slate-300">
          {empty}
        </p>
      ) : (
        <ol className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
          {entries.map((entry) => (
            <li key={entry.id} className="p-4 text-sm">
              <p>
                <span className="font-semibold">{entry.actor}</span> {entry.action}{' '}
                <span className="font-semibold">{entry.target}</span>
                {entry.change ? ` (${entry.change})` : null} on{' '}
                <time dateTime={entry.createdAt}>{formatDate(entry.createdAt, timeZone)}</time>
              </p>
              {entry.reason ? <p className="text-slate-700 dark:text-slate-300">Reason: {entry.reason}</p> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
