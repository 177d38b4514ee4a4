import { Labelled, TEXT_AREA_CLASS } from '~/components/ui/field';
import { fieldError, fieldValue, type FormResult } from '~/lib/form-result';
import { MAX_REASON, MIN_REASON } from '~/schemas/reason';

/** The required reason of a refund or an admin change: its limits, what was typed, its error. */
export function ReasonField({
  label,
  hint,
  rows,
  result,
}: {
  label: string;
  hint: string;
  rows: number;
  /** The answer the form shows: what was typed is kept, the error shown under the field. */
  result: FormResult | null | undefined;
}) {
  const error = fieldError(result, 'reason');
  return (
    <Labelled label={label} hint={`${MIN_REASON} to ${MAX_REASON} characters. ${hint}`} error={error}>
      {(links) => (
        <textarea
          {...links}
          name="reason"
          required
          minLength={MIN_REASON}
          maxLength={MAX_REASON}
          rows={rows}
          defaultValue={fieldValue(result, 'reason') ?? ''}
          className={TEXT_AREA_CLASS}
        />
      )}
    </Labelled>
  );
}
