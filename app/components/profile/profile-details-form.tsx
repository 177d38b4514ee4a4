/**
 * The Profile tab: picture area and the details form. Values come from the last failed POST
 * when there is one (nothing typed is lost), else from the stored profile.
 */
import { Form } from 'react-router';
import { Field, FormMessage } from '~/components/ui/field';
import {
  MAX_BIO_LENGTH,
  MAX_LOCATION_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PHONE_LENGTH,
  MAX_WEBSITE_LENGTH,
} from '~/schemas/profile';
import { USERNAME_HINT, USERNAME_INPUT } from '~/lib/auth-rules';
import { fieldError as errorOf, fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import type { Profile } from '~/server/profile.server';
import { PictureForm } from './picture-form';
import { SaveButton } from './profile-parts';

type TextField = 'username' | 'first_name' | 'last_name' | 'phone' | 'location' | 'website' | 'bio';

export function ProfileDetailsForm({
  profile,
  result,
  pictureResult,
}: {
  profile: Profile;
  result: FormResult | null;
  pictureResult: FormResult | null;
}) {
  const value = (name: TextField) => fieldValue(result, name) ?? profile[name] ?? '';
  const fieldError = (name: TextField) => errorOf(result, name);
  const notice = formNotice(result);
  const bioError = fieldError('bio');
  return (
    <div className="space-y-8">
      <PictureForm username={profile.username} pictureUrl={profile.profile_image_url} result={pictureResult} />

      <Form method="post" action="/profile?tab=profile" className="space-y-5">
        {notice ? <FormMessage {...notice} /> : null}
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="Username"
            name="username"
            required
            {...USERNAME_INPUT}
            hint={USERNAME_HINT}
            autoComplete="username"
            defaultValue={value('username')}
            error={fieldError('username')}
          />
          <Field label="Email" type="email" value={profile.email} disabled readOnly hint="Email cannot be changed" />
          <Field
            label="First name"
            name="first_name"
            maxLength={MAX_NAME_LENGTH}
            autoComplete="given-name"
            defaultValue={value('first_name')}
            error={fieldError('first_name')}
          />
          <Field
            label="Last name"
            name="last_name"
            maxLength={MAX_NAME_LENGTH}
            autoComplete="family-name"
            defaultValue={value('last_name')}
            error={fieldError('last_name')}
          />
          <Field
            label="Phone"
            name="phone"
            type="tel"
            maxLength={MAX_PHONE_LENGTH}
            autoComplete="tel"
            defaultValue={value('phone')}
            error={fieldError('phone')}
          />
          <Field
            label="Location"
            name="location"
            maxLength={MAX_LOCATION_LENGTH}
            autoComplete="address-level2"
            defaultValue={value('location')}
            error={fieldError('location')}
          />
          <Field
            label="Website"
            name="website"
            type="url"
            maxLength={MAX_WEBSITE_LENGTH}
            placeholder="https://example.com"
            autoComplete="url"
            defaultValue={value('website')}
            error={fieldError('website')}
            className="sm:col-span-2"
          />
        </div>
        <div>
          <label htmlFor="profile-bio" className="block text-sm font-medium">
            Bio
          </label>
          <textarea
            id="profile-bio"
            name="bio"
            rows={5}
            maxLength={MAX_BIO_LENGTH}
            defaultValue={value('bio')}
            aria-invalid={bioError ? true : undefined}
            aria-describedby={bioError ? 'profile-bio-hint profile-bio-error' : 'profile-bio-hint'}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-950"
          />
          <p id="profile-bio-hint" className="mt-1 text-xs text-slate-700 dark:text-slate-300">
            Maximum 500 characters
          </p>
          {bioError ? (
            <p id="profile-bio-error" className="mt-1 text-sm text-red-700 dark:text-red-300">
              {bioError}
            </p>
          ) : null}
        </div>
        <SaveButton intent="profile" />
      </Form>
    </div>
  );
}
