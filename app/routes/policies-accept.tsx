import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { TEXT_LINK } from '~/components/info-page';
import { FormCard } from '~/components/ui/form-card';
import { FormMessage } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { supabaseContext } from '~/context';
import { formatDate } from '~/lib/dashboard-format';
import { errorMeta, pageMeta } from '~/lib/meta';
import {
  POLICY_DOCUMENTS,
  POLICY_MESSAGES,
  POLICY_PATHS,
  POLICY_TITLES,
  isPolicyDocument,
  type PolicyDocument,
} from '~/lib/policies';
import { safeRedirectPath } from '~/lib/safe-redirect';
import { redirectWithFlash } from '~/server/cookies.server';
import { requireUser } from '~/server/guards.server';
import { acceptPolicies, pendingPolicies } from '~/server/policies.server';
import type { Route } from './+types/policies-accept';

/**
 * `/policies/accept?for=terms,privacy&returnTo=…` (ADR 069): the updated policies a signed-in user
 * has to accept before a purchase or a listing change (the guard `requireAcceptedPolicies` sends
 * them here), each with what changed and a link to read it; one box to tick. Accepting records the
 * versions shown (not newer ones published meanwhile) and goes back to `returnTo`.
 */
function asked(url: URL) {
  const among = (url.searchParams.get('for') ?? '').split(',').filter(isPolicyDocument);
  return {
    among: among.length ? among : [...POLICY_DOCUMENTS],
    returnTo: safeRedirectPath(url.searchParams.get('returnTo'), '/dashboard'),
  };
}

export async function loader(args: Route.LoaderArgs) {
  requireUser(args);
  const { among, returnTo } = asked(args.url);
  const pending = await pendingPolicies(args.context.get(supabaseContext), among);
  if (pending.length === 0) throw redirect(returnTo);
  return { pending, returnTo };
}

export async function action(args: Route.ActionArgs) {
  const viewer = requireUser(args);
  const { among, returnTo } = asked(args.url);
  const form = await args.request.formData();
  const client = args.context.get(supabaseContext);
  const pending = await pendingPolicies(client, among);
  if (form.get('accept') !== 'on') {
    return data({ message: POLICY_MESSAGES.acceptRequired, pending, returnTo }, { status: 400 });
  }
  // The versions the page showed: `terms:3`; only those still waiting for this user.
  const shown = new Set(form.getAll('version').map(String));
  const accepted = pending.filter((policy) => shown.has(`${policy.document}:${policy.version}`));
  await acceptPolicies(client, viewer.id, accepted);
  if (accepted.length < pending.length) {
    // A newer version was published while the page was open: it is shown now.
    return redirect(`${args.url.pathname}${args.url.search}`);
  }
  return redirectWithFlash(args.request, returnTo, { kind: 'success', message: POLICY_MESSAGES.accepted });
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Updated policies', 'Read and accept the updated policies of AgentMarket.');

export default function PoliciesAcceptPage({ loaderData, actionData }: Route.ComponentProps) {
  const pending = actionData?.pending ?? loaderData.pending;
  const navigation = useNavigation();
  return (
    <FormCard
      title="We updated our policies"
      intro="Please read what changed and accept it to go on. Nothing else changes until you do."
    >
      <Form method="post" className="flex flex-col gap-5" replace>
        {actionData?.message ? <FormMessage kind="error" message={actionData.message} /> : null}
        <ul className="flex flex-col gap-4">
          {pending.map((policy) => (
            <li key={policy.document} className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
              <h2 className="font-semibold">
                {POLICY_TITLES[policy.document as PolicyDocument]}, version {policy.version}
              </h2>
              <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
                Published {formatDate(policy.publishedAt)}. What changed: {policy.summary}
              </p>
              <p className="mt-2 text-sm">
                <Link to={POLICY_PATHS[policy.document as PolicyDocument]} className={TEXT_LINK} target="_blank">
                  Read the {POLICY_TITLES[policy.document as PolicyDocument]} (opens in a new tab)
                </Link>
              </p>
              <input type="hidden" name="version" value={`${policy.document}:${policy.version}`} />
            </li>
          ))}
        </ul>
        <div className="flex items-start gap-3">
          {/* Checked on the server (no `required`), so the message shows with or without JavaScript. */}
          <input
            id="accept-policies"
            type="checkbox"
            name="accept"
            aria-invalid={actionData?.message ? true : undefined}
            className="mt-0.5 size-5 shrink-0 accent-brand-600"
          />
          <label htmlFor="accept-policies" className="text-sm font-medium">
            I have read and accept the updated {pending.length === 1 ? 'policy' : 'policies'} above
          </label>
        </div>
        <SubmitButton pending={navigation.state === 'submitting'} pendingLabel="Recording…" wide>
          Accept and continue
        </SubmitButton>
        <Link
          to={loaderData.returnTo === '/dashboard' ? '/' : '/dashboard'}
          className={`${TEXT_LINK} text-center text-sm`}
        >
          Not now
        </Link>
      </Form>
    </FormCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
