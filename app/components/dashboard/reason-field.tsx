import { fieldNotes } from '~/components/ui/field';
import { fieldError, fieldValue, type FormResult } from '~/lib/form-result';
import { MAX_REASON, MIN_REASON } from '~/schemas/reason';

/** The required reason of a refund or an admin change: its limits, what was typed, its error. */
export function ReasonField({
  id,
  label,
  hint,
  rows,
  result,
}: {
  /** A unique prefix for the field's ids (useId of the form). */
  id: string;
  label: string;
  hint: string;
  rows: number;
  /** The answer the form shows: what was typed is kept, the error shown under the field. */
  result: FormResult | null | undefined;
}) {
  const error = fieldError(result, 'reason');
  const { describedBy, notes } = fieldNotes(id, `${MIN_REASON} to ${MAX_REASON} characters. ${hint}`, error);
  return (
    <div>
      <label htmlFor={`${id}-reason`} className="block text-sm font-medium">
        {label}
      </label>
      <textarea
        id={`${id}-reason`}
        name="reason"
        required
        minLength={MIN_REASON}
        maxLength={MAX_REASON}
        rows={rows}
        defaultValue={fieldValue(result, 'reason') ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-950"
      />
      {notes}
    </div>
  );
}
