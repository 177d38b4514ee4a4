/** `GET /settings`, `GET /.well-known/jwks.json` and the development outbox (`/_local/outbox`). */
import { validationFailed } from '../errors';
import { escapeHtml, htmlResponse, jsonBody, readJson, stringField } from '../http';
import { PRODUCT_EMAIL_TYPES, readOutbox, storeEmail, type ProductEmailType } from '../outbox';
import type { AuthService } from '../service';
import { googleAvailable } from '../service';
import { requireAdmin } from '../tokens';

export async function settings(service: AuthService): Promise<Response> {
  const { config } = service;
  const providers = [
    'apple',
    'azure',
    'bitbucket',
    'discord',
    'facebook',
    'figma',
    'fly',
    'github',
    'gitlab',
    'kakao',
    'keycloak',
    'linkedin',
    'linkedin_oidc',
    'notion',
    'spotify',
    'slack',
    'slack_oidc',
    'workos',
    'twitch',
    'twitter',
    'x',
    'zoom',
    'web3_ethereum',
    'web3_solana',
  ];
  return jsonBody({
    external: {
      ...Object.fromEntries(providers.map((provider) => [provider, false])),
      anonymous_users: config.enableAnonymousSignIns,
      email: config.emailProviderEnabled,
      google: googleAvailable(service),
      phone: false,
    },
    disable_signup: !config.enableSignup,
    mailer_autoconfirm: !config.enableConfirmations,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
    saml_private_key_next_configured: false,
    passkeys_enabled: false,
  });
}

/** An HS256-only project publishes no keys. */
export async function jwks(): Promise<Response> {
  return new Response(JSON.stringify({ keys: [] }), {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=600' },
  });
}

/**
 * `GET /admin/outbox` (service role only; not part of GoTrue): the newest emails with their
 * links and codes, and how they were delivered. The app shows it to admins on /dashboard/system.
 */
export async function adminOutbox(service: AuthService, request: Request): Promise<Response> {
  await requireAdmin(service, request);
  const limit = Math.min(
    200,
    Math.max(1, Number.parseInt(new URL(request.url).searchParams.get('limit') ?? '', 10) || 50),
  );
  return jsonBody({
    delivery: service.mail.kind,
    dev_tools: service.devTools,
    google: service.google ? 'oidc' : googleAvailable(service) ? 'stand-in' : 'off',
    emails: await readOutbox(service.db, { limit }),
  });
}

/**
 * `POST /admin/outbox` (service role only; not part of GoTrue): the app's own emails (a purchase
 * receipt, a sale notice) sent the way the Auth emails are: kept in the outbox and delivered
 * through SMTP, or the server log without it. Body: `{ to, subject, text, type }`.
 */
export async function sendProductEmail(service: AuthService, request: Request): Promise<Response> {
  await requireAdmin(service, request);
  const body = await readJson(request);
  const [to, subject, text, type] = ['to', 'subject', 'text', 'type'].map((key) => stringField(body, key).trim());
  if (!to || !to.includes('@') || to.length > 320) throw validationFailed('to must be an email address');
  if (!subject || subject.length > 200) throw validationFailed('subject must be 1 to 200 characters');
  if (!text || text.length > 20_000) throw validationFailed('text must be 1 to 20000 characters');
  if (!PRODUCT_EMAIL_TYPES.includes(type as ProductEmailType)) {
    throw validationFailed(`type must be one of ${PRODUCT_EMAIL_TYPES.join(', ')}`);
  }
  const html = `<h2>${escapeHtml(subject!)}</h2>${text!
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replaceAll('\n', '<br>')}</p>`)
    .join('')}`;
  const email = {
    to: to!,
    subject: subject!,
    type: type as ProductEmailType,
    text: text!,
    html,
    link: '',
    tokenHash: '',
    otp: '',
    redirectTo: null,
  };
  await storeEmail(service.db, email);
  await service.mail.send(email);
  return jsonBody({ sent: true }, 202);
}

export async function outboxJson(service: AuthService, request: Request): Promise<Response> {
  const to = new URL(request.url).searchParams.get('to') ?? undefined;
  return jsonBody({ emails: await readOutbox(service.db, { to }) });
}

export async function outboxPage(service: AuthService, request: Request): Promise<Response> {
  const to = new URL(request.url).searchParams.get('to') ?? undefined;
  const emails = await readOutbox(service.db, { to });
  const items = emails
    .map(
      (email) => `<article><header><h2>${escapeHtml(email.subject)}</h2>
<p>To <strong>${escapeHtml(email.to)}</strong> · ${escapeHtml(email.type)} · <time datetime="${email.createdAt}">${escapeHtml(email.createdAt)}</time></p></header>
<p><a href="${escapeHtml(email.link)}">${escapeHtml(email.link)}</a></p>
<p>Code: <code>${escapeHtml(email.otp)}</code> · token hash: <code>${escapeHtml(email.tokenHash)}</code></p></article>`,
    )
    .join('\n');
  return htmlResponse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox (local)</title><style>
body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#202124}
article{border:1px solid #dadce0;border-radius:8px;padding:1rem;margin:1rem 0}h2{margin:0;font-size:1.1rem}
a{word-break:break-all}code{word-break:break-all}</style></head>
<body><main><h1>Outbox</h1><p>Emails the embedded Auth service would have sent, newest first.
<a href="?">All</a> · <a href="outbox.json">JSON</a></p>
${items || '<p>No emails yet.</p>'}
</main></body></html>`);
}
