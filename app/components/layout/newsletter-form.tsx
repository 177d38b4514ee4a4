import { useFetcher, useLocation } from 'react-router';
import { ServerOnly } from 'remix-utils/server-only';
import { buttonClass } from '~/components/ui/button';
import type { Flash } from '~/lib/flash';
import { fieldValue, type FormResult } from '~/lib/form-result';
import { shareablePath } from '~/lib/shareable-path';

/**
 * A real subscription: with JavaScript a fetcher posts in place; without it the action
 * redirects back here with the result in a flash cookie.
 */
export function NewsletterForm({ flash }: { flash: Flash | null }) {
  const fetcher = useFetcher<FormResult>();
  const location = useLocation();
  // Without JavaScript the same result arrives as a flash message after the redirect.
  const result: FormResult | null =
    fetcher.data ??
    (flash ? { ok: flash.kind === 'success', message: flash.message, initialValue: flash.values ?? null } : null);
  const isPending = fetcher.state !== 'idle';

  return (
    <fetcher.Form method="post" action="/resources/newsletter" id="newsletter" className="mt-3">
      <ServerOnly>
        {() => <input type="hidden" name="redirectTo" value={`${shareablePath(location)}#newsletter`} />}
      </ServerOnly>
      <div className="flex max-w-sm gap-2">
        <label htmlFor="newsletter-email" className="sr-only">
          Email address
        </label>
        <input
          id="newsletter-email"
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder="Enter your email"
          defaultValue={result && !result.ok ? (fieldValue(result, 'email') ?? '') : ''}
          key={result?.ok ? 'subscribed' : 'form'}
          aria-invalid={result && !result.ok ? true : undefined}
          aria-describedby={result?.message ? 'newsletter-message' : undefined}
          className="h-10 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 text-sm placeholder:text-slate-500 dark:border-slate-600 dark:bg-slate-950 dark:placeholder:text-slate-400"
        />
        <button type="submit" className={buttonClass('primary', 'md')} disabled={isPending}>
          {isPending ? 'Subscribing...' : 'Subscribe'}
        </button>
      </div>
      {result?.message ? (
        <p
          id="newsletter-message"
          role={result.ok ? 'status' : 'alert'}
          className={`mt-2 text-sm ${result.ok ? 'text-green-800 dark:text-green-300' : 'text-red-700 dark:text-red-300'}`}
        >
          {result.message}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
