import { data, redirect } from 'react-router';
import { z } from 'zod';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { setTheme } from '~/server/cookies.server';
import { parseForm } from '~/server/forms.server';
import type { Route } from './+types/theme';

const ThemeFormSchema = z.object({
  theme: z.enum(['light', 'dark']),
  redirectTo: z.string().optional(),
});

export async function action({ request }: Route.ActionArgs) {
  const result = parseForm(await request.formData(), ThemeFormSchema);
  if (!result.success) return data({ ok: false as const, error: 'Choose the light or dark theme.' }, { status: 400 });
  const headers = { 'Set-Cookie': await setTheme(request, result.data.theme) };
  // Without JavaScript the form carries the page to return to; a fetcher does not.
  if (result.data.redirectTo !== undefined) {
    return redirect(safeRedirectPath(result.data.redirectTo), { headers });
  }
  return data({ ok: true as const, theme: result.data.theme }, { headers });
}

export function loader() {
  return redirect('/');
}
