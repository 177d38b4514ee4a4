/**
 * The form that turns a buyer into a seller: display name, a short pitch, a typical
 * response time and the seller terms. A POST form that works without JavaScript; after an error
 * it comes back with what was typed, each message beside its field.
 */
import { Form, Link, useNavigation } from 'react-router';
import { Field, FormMessage } from '~/components/ui/field';
import { fieldError, fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import {
  DEFAULT_RESPONSE_TIME_HOURS,
  MAX_DISPLAY_NAME_LENGTH,
  MAX_PITCH_LENGTH,
  RESPONSE_TIME_HOURS,
  responseTimeLabel,
} from '~/schemas/seller';
import { SubmitButton } from '~/components/ui/submit-button';

export const BECOME_SELLER_ACTION = '/become-seller';

const INPUT_CLASS =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 text-sm aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-950';

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="mt-1 text-sm text-red-700 dark:text-red-300">
      {message}
    </p>
  ) : null;
}

export function BecomeSellerForm({ username, result }: { username: string; result: FormResult | null | undefined }) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formAction === BECOME_SELLER_ACTION;
  const errors = {
    displayName: fieldError(result, 'displayName'),
    pitch: fieldError(result, 'pitch'),
    responseTimeHours: fieldError(result, 'responseTimeHours'),
    acceptTerms: fieldError(result, 'acceptTerms'),
  };
  const notice = formNotice(result);
  const describedBy = (hint: string | null, name: keyof typeof errors) =>
    [hint, errors[name] ? `${name}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <Form method="post" action={BECOME_SELLER_ACTION} className="flex flex-col gap-6">
      {notice ? <FormMessage {...notice} /> : null}
      <Field
        label="Display name (optional)"
        name="displayName"
        maxLength={MAX_DISPLAY_NAME_LENGTH}
        autoComplete="organization"
        defaultValue={fieldValue(result, 'displayName') ?? ''}
        hint={`Shown on your storefront. Leave it empty to use your username, ${username}.`}
        error={errors.displayName}
      />
      <div>
        <label htmlFor="pitch" className="block text-sm font-medium">
          Short pitch (optional)
        </label>
        <textarea
          id="pitch"
          name="pitch"
          rows={4}
          maxLength={MAX_PITCH_LENGTH}
          defaultValue={fieldValue(result, 'pitch') ?? ''}
          aria-invalid={errors.pitch ? true : undefined}
          aria-describedby={describedBy('pitch-hint', 'pitch')}
          className={`${INPUT_CLASS} py-2`}
        />
        <p id="pitch-hint" className="mt-1 text-xs text-slate-700 dark:text-slate-300">
          Up to {MAX_PITCH_LENGTH} characters: what you build and for whom.
        </p>
        <FieldError id="pitch-error" message={errors.pitch} />
      </div>
      <div>
        <label htmlFor="responseTimeHours" className="block text-sm font-medium">
          Typical response time
        </label>
        <select
          id="responseTimeHours"
          name="responseTimeHours"
          defaultValue={fieldValue(result, 'responseTimeHours') ?? String(DEFAULT_RESPONSE_TIME_HOURS)}
          aria-invalid={errors.responseTimeHours ? true : undefined}
          aria-describedby={describedBy('responseTimeHours-hint', 'responseTimeHours')}
          className={`${INPUT_CLASS} h-11`}
        >
          {RESPONSE_TIME_HOURS.map((hours) => (
            <option key={hours} value={hours}>
              {responseTimeLabel(hours)}
            </option>
          ))}
        </select>
        <p id="responseTimeHours-hint" className="mt-1 text-xs text-slate-700 dark:text-slate-300">
          Buyers see it when they contact you.
        </p>
        <FieldError id="responseTimeHours-error" message={errors.responseTimeHours} />
      </div>
      <div>
        <div className="flex items-start gap-3">
          {/* Checked on the server (no `required`), so the message shows beside the box with or without JavaScript. */}
          <input
            id="acceptTerms"
            type="checkbox"
            name="acceptTerms"
            defaultChecked={fieldValue(result, 'acceptTerms') === 'on'}
            aria-invalid={errors.acceptTerms ? true : undefined}
            aria-describedby={describedBy('acceptTerms-hint', 'acceptTerms')}
            className="mt-0.5 size-5 shrink-0 accent-brand-600"
          />
          <div className="text-sm">
            <label htmlFor="acceptTerms" className="font-medium">
              I accept the seller terms
            </label>
            <p id="acceptTerms-hint" className="text-slate-700 dark:text-slate-300">
              The platform fee, payouts and listing rules above (the{' '}
              <Link to="/seller-policy" className="font-medium text-brand-700 underline dark:text-brand-300">
                Seller Policy
              </Link>
              ), and the{' '}
              <Link to="/terms" className="font-medium text-brand-700 underline dark:text-brand-300">
                Terms of Service
              </Link>
              .
            </p>
          </div>
        </div>
        <FieldError id="acceptTerms-error" message={errors.acceptTerms} />
      </div>
      <div>
        <SubmitButton pending={saving} pendingLabel="Setting up your seller account..." size="lg">
          Become a seller
        </SubmitButton>
      </div>
    </Form>
  );
}
