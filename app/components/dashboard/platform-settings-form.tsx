/**
 * System Settings' platform settings (ADR 065): the platform fee, the price ceiling, the upload
 * limits, whether sign-up is open, and maintenance mode with its message. A POST form that works without JavaScript; after an error it
 * comes back with what was typed, each message beside its field.
 */
import { Form, useNavigation } from 'react-router';
import { Field, FormMessage, Labelled, TEXT_AREA_CLASS } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { fieldError, fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import { MAX_IMAGE_MB, MAX_PACKAGE_MB } from '~/schemas/listing';
import {
  MAX_MAINTENANCE_MESSAGE_LENGTH,
  MAX_PLATFORM_FEE_PERCENT,
  type PlatformSettings,
  type SettingsChange,
} from '~/schemas/platform-settings';

const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function Switch({
  name,
  label,
  hint,
  defaultChecked,
}: {
  name: string;
  label: string;
  hint: string;
  defaultChecked: boolean;
}) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={name}
        type="checkbox"
        name={name}
        defaultChecked={defaultChecked}
        aria-describedby={`${name}-hint`}
        className="mt-0.5 size-5 shrink-0 accent-brand-600"
      />
      <div className="text-sm">
        <label htmlFor={name} className="font-medium">
          {label}
        </label>
        <p id={`${name}-hint`} className="text-slate-700 dark:text-slate-300">
          {hint}
        </p>
      </div>
    </div>
  );
}

export function PlatformSettingsForm({
  settings,
  changes,
  result,
}: {
  settings: PlatformSettings;
  /** The latest changes, newest first (the audit log). */
  changes: SettingsChange[];
  result: FormResult | null | undefined;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save-settings';
  const notice = formNotice(result);
  // After an error the form shows what was typed; otherwise what is in force.
  const typed = result && !result.ok;
  const checked = (name: 'signupsOpen' | 'maintenanceMode') =>
    typed ? fieldValue(result, name) === 'on' : settings[name];
  return (
    <section
      aria-labelledby="platform-settings"
      className="rounded-xl border border-slate-200 p-5 dark:border-slate-800"
    >
      <h2 id="platform-settings" className="text-lg font-semibold">
        Platform settings
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        {changes[0]
          ? `Last changed ${utc(changes[0].createdAt)} by ${changes[0].actor}.`
          : 'The defaults: never changed.'}{' '}
        Every change is written to the audit log.
      </p>
      <Form method="post" className="mt-4 flex max-w-xl flex-col gap-5">
        <input type="hidden" name="intent" value="save-settings" />
        {notice ? <FormMessage {...notice} /> : null}
        <Field
          label="Platform fee (%)"
          name="platformFeePercent"
          inputMode="decimal"
          defaultValue={typed ? (fieldValue(result, 'platformFeePercent') ?? '') : String(settings.platformFeePercent)}
          hint={`From 0 to ${MAX_PLATFORM_FEE_PERCENT}, shown on Pricing and Become a Seller. Each sale is charged the fee in force when it is bought; past sales keep theirs.`}
          error={fieldError(result, 'platformFeePercent')}
        />
        <Field
          label="Price ceiling ($)"
          name="maxAgentPrice"
          inputMode="decimal"
          defaultValue={typed ? (fieldValue(result, 'maxAgentPrice') ?? '') : String(settings.maxAgentPrice)}
          hint="The highest price a seller can list an agent at. An agent above a lowered ceiling keeps its price until it is changed."
          error={fieldError(result, 'maxAgentPrice')}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="Largest image (MB)"
            name="maxImageMb"
            inputMode="numeric"
            defaultValue={typed ? (fieldValue(result, 'maxImageMb') ?? '') : String(settings.maxImageMb)}
            hint={`1 to ${MAX_IMAGE_MB}: a listing's thumbnail and each of its images.`}
            error={fieldError(result, 'maxImageMb')}
          />
          <Field
            label="Largest package (MB)"
            name="maxPackageMb"
            inputMode="numeric"
            defaultValue={typed ? (fieldValue(result, 'maxPackageMb') ?? '') : String(settings.maxPackageMb)}
            hint={`1 to ${MAX_PACKAGE_MB}: the file buyers download.`}
            error={fieldError(result, 'maxPackageMb')}
          />
        </div>
        <Switch
          name="signupsOpen"
          label="Sign-up open"
          hint="When off, no new account can be made (email or Google); everyone who has one still signs in."
          defaultChecked={checked('signupsOpen')}
        />
        <Switch
          name="maintenanceMode"
          label="Maintenance mode"
          hint="When on, everyone can browse, but only administrators can change anything: buying, selling, reviews and sign-up pause, and every page shows the message below."
          defaultChecked={checked('maintenanceMode')}
        />
        <Labelled
          label="Maintenance message (optional)"
          hint={`Up to ${MAX_MAINTENANCE_MESSAGE_LENGTH} characters, shown to everyone during maintenance.`}
          error={fieldError(result, 'maintenanceMessage')}
        >
          {(links) => (
            <textarea
              {...links}
              name="maintenanceMessage"
              rows={3}
              maxLength={MAX_MAINTENANCE_MESSAGE_LENGTH}
              defaultValue={
                typed ? (fieldValue(result, 'maintenanceMessage') ?? '') : (settings.maintenanceMessage ?? '')
              }
              className={TEXT_AREA_CLASS}
            />
          )}
        </Labelled>
        <div>
          <SubmitButton pending={saving} pendingLabel="Saving...">
            Save settings
          </SubmitButton>
        </div>
      </Form>
      {changes.length > 0 ? (
        <div className="mt-6">
          <h3 className="text-sm font-semibold">Recent changes</h3>
          <ul className="mt-2 flex flex-col gap-2 text-sm text-slate-700 dark:text-slate-300">
            {changes.map((change) => (
              <li key={change.id}>
                <span className="font-medium text-slate-900 dark:text-slate-100">
                  {utc(change.createdAt)}, {change.actor}:
                </span>{' '}
                {change.changes.join('; ')}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
