/**
 * The profile picture: a multipart POST form that works without JavaScript (the server checks
 * the size and the file's bytes and answers beside the control); with JavaScript the chosen
 * picture is previewed and a file over 2MB is refused before it is sent.
 */
import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { Form } from 'react-router';
import { Avatar } from '~/components/ui/avatar';
import { fieldError, type FormResult } from '~/lib/form-result';
import { ACCOUNT_MESSAGES, MAX_PICTURE_BYTES, PICTURE_ACCEPT } from '~/schemas/account';
import { SaveButton } from './profile-parts';

export function PictureForm({
  username,
  pictureUrl,
  result,
}: {
  username: string;
  pictureUrl: string | null;
  result: FormResult | null;
}) {
  const [preview, setPreview] = useState<string | null>(null);
  const [tooLarge, setTooLarge] = useState(false);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const error = tooLarge ? ACCOUNT_MESSAGES.pictureTooLarge : fieldError(result, 'picture');
  const describedBy = error ? 'picture-hint picture-error' : 'picture-hint';

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    setTooLarge(Boolean(file && file.size > MAX_PICTURE_BYTES));
    setPreview(file && file.size <= MAX_PICTURE_BYTES ? URL.createObjectURL(file) : null);
  }
  function submit(event: FormEvent<HTMLFormElement>) {
    if (tooLarge) event.preventDefault();
  }

  return (
    <Form
      method="post"
      action="/profile?tab=profile&form=picture"
      encType="multipart/form-data"
      onSubmit={submit}
      className="flex flex-wrap items-center gap-6"
    >
      <Avatar name={username} url={preview ?? pictureUrl} size="lg" />
      <div className="space-y-2">
        <label htmlFor="picture-file" className="block text-sm font-medium">
          Profile picture
        </label>
        <input
          id="picture-file"
          type="file"
          name="picture"
          accept={PICTURE_ACCEPT}
          required
          onChange={choose}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="block text-sm text-slate-700 file:mr-3 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-900 focus-visible:outline-2 focus-visible:outline-focus dark:text-slate-300 dark:file:border-slate-600 dark:file:bg-slate-900 dark:file:text-slate-100"
        />
        <p id="picture-hint" className="text-sm text-slate-700 dark:text-slate-300">
          JPG, PNG or GIF. Max size 2MB.
        </p>
        {error ? (
          <p id="picture-error" role="alert" className="text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
        <SaveButton intent="picture" label="Upload new picture" pendingLabel="Uploading..." variant="secondary" />
      </div>
    </Form>
  );
}
