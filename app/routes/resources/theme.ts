import { redirect } from 'react-router';
import { z } from 'zod';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { THEME_CHOICES } from '~/lib/theme';
import { setTheme } from '~/server/cookies.server';
import { formError, formSuccess, parseForm } from '~/server/forms.server';
import type { Route } from './+types/theme';

const ThemeFormSchema = z.object({
  theme: z.enum(THEME_CHOICES),
  redirectTo: z.string().optional(),
});

export async function action({ request }: Route.ActionArgs) {
  const submission = parseForm(await request.formData(), ThemeFormSchema);
  if (submission.status !== 'success') return formError(submission, { message: 'Choose the light or dark theme.' });
  const { theme, redirectTo } = submission.value;
  const headers = { 'Set-Cookie': await setTheme(request, theme) };
  // Without JavaScript the form carries the page to return to; a fetcher does not.
  if (redirectTo !== undefined) return redirect(safeRedirectPath(redirectTo), { headers });
  return formSuccess(submission, undefined, { headers });
}

export function loader() {
  return redirect('/');
}
