/**
 * A new password typed twice (`password`, `confirmPassword`): the first administrator, the
 * password reset and the profile's Change Password. The rule is `newPasswordFields` in
 * app/schemas/auth.ts; errors come from the form's result.
 */
import { Field } from '~/components/ui/field';
import { MIN_PASSWORD_LENGTH } from '~/lib/auth-rules';
import { fieldError, type FormResult } from '~/lib/form-result';

export function NewPasswordFields({
  result,
  label = 'New password',
  confirmLabel = 'Confirm new password',
}: {
  result: FormResult | null | undefined;
  label?: string;
  confirmLabel?: string;
}) {
  return (
    <>
      <Field
        label={label}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        hint="Password must be at least 6 characters long"
        error={fieldError(result, 'password')}
      />
      <Field
        label={confirmLabel}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        required
        error={fieldError(result, 'confirmPassword')}
      />
    </>
  );
}
