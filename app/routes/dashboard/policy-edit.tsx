import { data, Form, Link, useNavigation } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { TEXT_LINK } from '~/components/info-page';
import { MarkdownDocument } from '~/components/policies/markdown-document';
import { PolicyVersionList } from '~/components/policies/version-list';
import { Field, FormMessage, Labelled, TEXT_AREA_CLASS } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { supabaseContext } from '~/context';
import { formatDate } from '~/lib/dashboard-format';
import { fieldError, fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import { POLICY_MESSAGES, POLICY_TITLES, isPolicyDocument, type PolicyDocument } from '~/lib/policies';
import { MAX_POLICY_SUMMARY, policyVersionSchema } from '~/schemas/policy';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireSection } from '~/server/guards.server';
import { notFound } from '~/server/http-errors.server';
import { renderMarkdown } from '~/server/markdown.server';
import { listPolicyVersions, publishPolicy, readPolicy } from '~/server/policies.server';
import type { Route } from './+types/policy-edit';

/**
 * `/dashboard/policies/:document` (admins, in Policies; ADR 069): the document's Markdown, ready
 * to change, with a preview rendered on the server (the same renderer as the public page) and
 * Publish, which makes the text a new version with its summary of changes. A POST form that works
 * without JavaScript; the preview and any error come back with what was typed.
 */
function documentOf(param: string | undefined): PolicyDocument {
  return isPolicyDocument(param) ? param : notFound({ title: 'Policy not found' });
}

export async function loader(args: Route.LoaderArgs) {
  requireSection(args);
  const document = documentOf(args.params.document);
  const client = args.context.get(supabaseContext);
  const [current, versions] = await Promise.all([readPolicy(client, document), listPolicyVersions(client, document)]);
  return { document, current, versions };
}

type PreviewResult = FormResult & { preview?: string };

export async function action(args: Route.ActionArgs) {
  requireSection(args);
  const document = documentOf(args.params.document);
  const submission = parseForm(await args.request.formData(), policyVersionSchema);
  if (submission.status !== 'success') return formError(submission);
  const { intent, body, summary } = submission.value;
  const client = args.context.get(supabaseContext);
  if (intent === 'preview') {
    const preview: PreviewResult = {
      ...submission.reply(),
      ok: true,
      preview: renderMarkdown(body),
    };
    return data(preview);
  }
  const current = await readPolicy(client, document);
  if (current.body.trim() === body) {
    return formError(submission, {
      message: 'This is the text in force already. Change it to publish a new version.',
      fieldErrors: { body: ['This is the text in force already.'] },
      status: 409,
    });
  }
  const version = await publishPolicy(client, document, { body, summary });
  return redirectWithFlash(args.request, '/dashboard/policies', {
    kind: 'success',
    message: POLICY_MESSAGES.published(POLICY_TITLES[document], version),
  });
}

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  errorMeta(error) ??
  pageMeta(
    loaderData ? `Edit ${POLICY_TITLES[loaderData.document as PolicyDocument]}` : 'Edit a policy',
    'Publish a new version of a policy.',
  );

export default function PolicyEditPage({ loaderData, actionData }: Route.ComponentProps) {
  const document = loaderData.document as PolicyDocument;
  const { current, versions } = loaderData;
  const result = actionData as PreviewResult | undefined;
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;
  const notice = formNotice(result);
  return (
    <div className="flex flex-col gap-6">
      <header>
        <p className="text-sm">
          <Link to="/dashboard/policies" className={TEXT_LINK}>
            Policies
          </Link>
        </p>
        <h1 className="mt-1 text-3xl font-bold">Edit {POLICY_TITLES[document]}</h1>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          Version {current.version} is in force since {formatDate(current.publishedAt)}. Publishing makes a new version;
          users accept it before their next purchase
          {document === 'seller' ? ' (sellers: their next listing change)' : ''}.
        </p>
      </header>
      <Form method="post" className="flex flex-col gap-4 rounded-xl border border-slate-200 p-5 dark:border-slate-800">
        {notice && !result?.preview ? <FormMessage {...notice} /> : null}
        <Labelled
          label="Text (Markdown)"
          hint="## for a heading, - for a list, **bold**, [a link](/pricing). HTML is shown as text."
          error={fieldError(result, 'body')}
        >
          {(links) => (
            <textarea
              {...links}
              name="body"
              rows={18}
              defaultValue={fieldValue(result, 'body') ?? current.body}
              className={`${TEXT_AREA_CLASS} font-mono`}
            />
          )}
        </Labelled>
        <Field
          label="What changed"
          name="summary"
          maxLength={MAX_POLICY_SUMMARY}
          hint="One sentence, shown to everyone asked to accept the new version."
          defaultValue={fieldValue(result, 'summary') ?? ''}
          error={fieldError(result, 'summary')}
        />
        <div className="flex flex-wrap gap-3">
          <SubmitButton
            name="intent"
            value="preview"
            variant="secondary"
            pending={sending === 'preview'}
            pendingLabel="Rendering…"
          >
            Preview
          </SubmitButton>
          <SubmitButton name="intent" value="publish" pending={sending === 'publish'} pendingLabel="Publishing…">
            Publish version {current.version + 1}
          </SubmitButton>
        </div>
      </Form>
      {result?.preview ? (
        <section
          aria-labelledby="policy-preview"
          className="rounded-xl border border-dashed border-slate-300 p-5 dark:border-slate-700"
        >
          <h2 id="policy-preview" className="text-lg font-semibold">
            Preview
          </h2>
          <div className="mt-3">
            <MarkdownDocument html={result.preview} />
          </div>
        </section>
      ) : null}
      <section
        aria-labelledby="policy-history"
        className="rounded-xl border border-slate-200 p-5 dark:border-slate-800"
      >
        <h2 id="policy-history" className="text-lg font-semibold">
          Versions
        </h2>
        <PolicyVersionList document={document} versions={versions} current={current.version} />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
