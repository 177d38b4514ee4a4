/**
 * The listing form of Upload and Edit: a multipart POST form that works without
 * JavaScript. After an error it comes back with what was typed, the messages beside their
 * fields, and the images already stored as ticked "keep" checkboxes (the package must be chosen
 * again: app/server/listing.server.ts).
 */
import { Form, useNavigation } from 'react-router';
import { buttonClass } from '~/components/ui/button';
import { Field, FormMessage, Labelled } from '~/components/ui/field';
import { fieldError, fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import {
  MAX_ACTIVATION_LIMIT,
  MAX_AGENT_DESCRIPTION_LENGTH,
  MAX_AGENT_NAME_LENGTH,
  MAX_IMAGES,
  MAX_RELEASE_NOTES_LENGTH,
  priceRangeEnd,
  type ListingLimits,
} from '~/schemas/listing';
import { FIRST_VERSION } from '~/lib/versions';
import { AGENT_MANIFEST_FILE } from '~/lib/agent-package-format';
import { SubmitButton } from '~/components/ui/submit-button';
import { useStoredImage } from '~/lib/use-stored-image';

export interface ListingValues {
  name: string;
  description: string;
  category: string;
  price: string;
  /** Activations per licence (ADR 073); '' = no limit. */
  activationLimit: string;
  features: string;
  thumbnailUrl: string | null;
  images: string[];
}

const IMAGE_TYPES = 'image/jpeg,image/png,image/gif,image/webp';
const PACKAGE_TYPES = '.json,.zip,application/json,application/zip';
const INPUT =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-950';

/** Every value sent for `name` in the submission `result` answers. */
function fieldValues(result: FormResult | null | undefined, name: string): string[] {
  const value = result?.initialValue?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function ListingForm({
  action,
  categories,
  limits,
  initial,
  draftId,
  latestVersion,
  publishable = true,
  result,
}: {
  action: string;
  categories: readonly string[];
  /** The price ceiling in force or the agent's own price, and the largest files (platform settings). */
  limits: ListingLimits;
  initial: ListingValues;
  /** Upload: the id the new agent gets. */
  draftId?: string;
  /** Edit: the agent's latest version (a new package needs a higher one). */
  latestVersion?: string | null;
  /** False for an agent a moderator unpublished: it can only be saved as a draft. */
  publishable?: boolean;
  result: FormResult | null | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formAction === action;
  const value = (name: string, fallback: string) => (result ? (fieldValue(result, name) ?? '') : fallback);
  const thumbnail = result ? (fieldValue(result, 'keep_thumbnail') ?? null) : initial.thumbnailUrl;
  const images = result ? fieldValues(result, 'keep_images') : initial.images;
  // Remounted after each answer, so files already stored are not sent a second time.
  const filesKey = [thumbnail, ...images].join(' ');
  const notice = formNotice(result);
  const isEdit = draftId === undefined;
  return (
    <Form method="post" action={action} encType="multipart/form-data" className="flex flex-col gap-6" noValidate>
      {notice ? <FormMessage {...notice} /> : null}
      {draftId ? <input type="hidden" name="draft_id" value={value('draft_id', draftId)} /> : null}

      <Field
        label="Name"
        name="name"
        required
        maxLength={MAX_AGENT_NAME_LENGTH}
        defaultValue={value('name', initial.name)}
        error={fieldError(result, 'name')}
      />
      <TextArea
        label="Description"
        name="description"
        rows={6}
        maxLength={MAX_AGENT_DESCRIPTION_LENGTH}
        defaultValue={value('description', initial.description)}
        error={fieldError(result, 'description')}
      />
      <div className="grid gap-6 sm:grid-cols-2">
        <SelectCategory
          categories={categories}
          defaultValue={value('category', initial.category)}
          error={fieldError(result, 'category')}
        />
        <Field
          label="Price (USD)"
          name="price"
          inputMode="decimal"
          required
          defaultValue={value('price', initial.price)}
          hint={`From 0 (free) to ${priceRangeEnd(limits)}, at most two decimals.`}
          error={fieldError(result, 'price')}
        />
        <Field
          label="Activation limit"
          name="activation_limit"
          inputMode="numeric"
          defaultValue={value('activation_limit', initial.activationLimit)}
          hint={`How many times one buyer's licence key can be activated, 1 to ${MAX_ACTIVATION_LIMIT.toLocaleString('en-US')}. Leave empty for no limit.`}
          error={fieldError(result, 'activation_limit')}
        />
      </div>
      <TextArea
        label="Features"
        name="features"
        rows={5}
        hint="One feature per line."
        defaultValue={value('features', initial.features)}
        error={fieldError(result, 'features')}
      />

      <fieldset className="flex flex-col gap-4 rounded-xl border border-slate-200 p-4 dark:border-slate-700">
        <legend className="px-1 text-sm font-semibold">Images</legend>
        {thumbnail ? <KeptImage name="keep_thumbnail" url={thumbnail} label="Keep the current thumbnail" /> : null}
        <FileInput
          key={`thumbnail ${filesKey}`}
          label={thumbnail ? 'Replace the thumbnail' : 'Thumbnail'}
          name="thumbnail"
          accept={IMAGE_TYPES}
          hint={`JPEG, PNG, GIF or WebP, at most ${limits.imageMb} MB.`}
          error={fieldError(result, 'thumbnail')}
        />
        {images.length ? (
          <ul className="flex flex-wrap gap-4" aria-label="Gallery images">
            {images.map((url, index) => (
              <li key={url}>
                <KeptImage name="keep_images" url={url} label={`Keep image ${index + 1}`} />
              </li>
            ))}
          </ul>
        ) : null}
        <FileInput
          key={`images ${filesKey}`}
          label="Gallery images"
          name="images"
          accept={IMAGE_TYPES}
          multiple
          hint={`Up to ${MAX_IMAGES} images in all, each JPEG, PNG, GIF or WebP of at most ${limits.imageMb} MB.`}
          error={result?.error?.images?.join(' ')}
        />
      </fieldset>

      <fieldset className="flex flex-col gap-4 rounded-xl border border-slate-200 p-4 dark:border-slate-700">
        <legend className="px-1 text-sm font-semibold">Package</legend>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {latestVersion
            ? `Latest version: ${latestVersion}. A new package is a new version: give it a higher number and release notes.`
            : isEdit
              ? 'No package yet. Add one before publishing: buyers download it.'
              : 'The file buyers download. Needed to publish; a draft may be saved without it.'}
        </p>
        <FileInput
          key={`package ${filesKey}`}
          label={latestVersion ? 'New package file' : 'Package file'}
          name="package"
          accept={PACKAGE_TYPES}
          hint={`A JSON manifest in the agent package format (see Documentation), or a ZIP archive with ${AGENT_MANIFEST_FILE} at its root; at most ${limits.packageMb} MB.`}
          error={fieldError(result, 'package')}
        />
        <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
          <Field
            label="Version"
            name="version"
            placeholder={latestVersion ? 'e.g. 2.0.0' : FIRST_VERSION}
            defaultValue={value('version', latestVersion ? '' : FIRST_VERSION)}
            error={fieldError(result, 'version')}
          />
          <TextArea
            label="Release notes"
            name="release_notes"
            rows={3}
            maxLength={MAX_RELEASE_NOTES_LENGTH}
            hint={latestVersion ? 'Required with a new package.' : 'Optional for the first version.'}
            defaultValue={value('release_notes', '')}
            error={fieldError(result, 'release_notes')}
          />
        </div>
      </fieldset>

      <div className="flex flex-wrap gap-3">
        {publishable ? (
          <SubmitButton name="intent" value="publish" pending={busy}>
            Publish
          </SubmitButton>
        ) : null}
        <button type="submit" name="intent" value="draft" className={buttonClass('secondary')} disabled={busy}>
          Save as draft
        </button>
      </div>
    </Form>
  );
}

function TextArea({
  label,
  name,
  hint,
  error,
  ...props
}: React.TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; name: string; hint?: string; error?: string }) {
  return (
    <Labelled label={label} hint={hint} error={error}>
      {(links) => <textarea {...links} name={name} className={INPUT} {...props} />}
    </Labelled>
  );
}

function SelectCategory({
  categories,
  defaultValue,
  error,
}: {
  categories: readonly string[];
  defaultValue: string;
  error?: string;
}) {
  return (
    <Labelled label="Category" error={error}>
      {(links) => (
        <select {...links} name="category" required defaultValue={defaultValue} className={`${INPUT} h-11`}>
          <option value="">Choose a category</option>
          {categories.map((category) => (
            <option key={category} value={category}>
              {category}
            </option>
          ))}
        </select>
      )}
    </Labelled>
  );
}

function FileInput({
  label,
  name,
  hint,
  error,
  ...props
}: React.InputHTMLAttributes<HTMLInputElement> & { label: string; name: string; hint?: string; error?: string }) {
  return (
    <Labelled label={label} hint={hint} error={error}>
      {(links) => (
        <input
          {...links}
          type="file"
          name={name}
          className="mt-1 block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-900 dark:file:bg-slate-800 dark:file:text-slate-100"
          {...props}
        />
      )}
    </Labelled>
  );
}

function KeptImage({ name, url, label }: { name: string; url: string; label: string }) {
  const storedImage = useStoredImage();
  return (
    <label className="flex items-center gap-3 text-sm">
      <input type="checkbox" name={name} value={url} defaultChecked className="size-4" />
      <img src={storedImage(url)} alt="" width={96} height={54} className="h-14 w-24 rounded object-cover" />
      {label}
    </label>
  );
}
