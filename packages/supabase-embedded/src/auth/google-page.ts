/**
 * The local Google sign-in page (after the Firebase Auth Emulator's): lists known Google
 * identities and offers "Add new account". Plain HTML forms, no scripts, works without JavaScript.
 */
import { escapeHtml } from './http';

export interface KnownGoogleAccount {
  subject: string;
  name: string;
  email: string;
  picture: string;
}

export interface GooglePageInput {
  state: string;
  action: string;
  accounts: KnownGoogleAccount[];
  error?: string;
  values?: { email?: string; name?: string };
}

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f1f3f4;margin:0;color:#202124}
main{max-width:28rem;margin:3rem auto;background:#fff;border-radius:8px;padding:2rem;box-shadow:0 1px 3px #0003}
h1{font-size:1.4rem;margin:0 0 .25rem}p{color:#5f6368;margin:.25rem 0 1.25rem}
ul{list-style:none;padding:0;margin:0 0 1.5rem}li form{margin:0}
.account{display:flex;gap:.75rem;align-items:center;width:100%;padding:.6rem;border:1px solid #dadce0;border-radius:6px;background:#fff;cursor:pointer;text-align:left;margin-bottom:.5rem;font:inherit}
.account:hover,.account:focus{background:#f8f9fa;outline:2px solid #1a73e8}
.account img{width:36px;height:36px;border-radius:50%}.account small{display:block;color:#5f6368}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}input[type=email],input[type=text]{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #dadce0;border-radius:4px;font:inherit}
.actions{display:flex;gap:.5rem;margin-top:1rem}button.primary{background:#1a73e8;color:#fff;border:0;border-radius:4px;padding:.6rem 1.2rem;font:inherit;cursor:pointer}
button.secondary{background:#fff;color:#1a73e8;border:1px solid #dadce0;border-radius:4px;padding:.6rem 1.2rem;font:inherit;cursor:pointer}
.error{color:#b3261e;font-weight:600}.note{font-size:.8rem;color:#5f6368;margin-top:1.5rem}`;

export function renderGooglePage(input: GooglePageInput): string {
  const state = `<input type="hidden" name="state" value="${escapeHtml(input.state)}">`;
  const accounts = input.accounts.length
    ? `<h2>Choose an account</h2><ul>${input.accounts
        .map(
          (account) => `<li><form method="post" action="${escapeHtml(input.action)}">${state}
<input type="hidden" name="intent" value="existing"><input type="hidden" name="subject" value="${escapeHtml(account.subject)}">
<button class="account" type="submit"><img src="${escapeHtml(account.picture)}" alt="">
<span>${escapeHtml(account.name)}<small>${escapeHtml(account.email)}</small></span></button></form></li>`,
        )
        .join('')}</ul>`
    : '';
  const error = input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in with Google (local)</title><style>${STYLE}</style></head>
<body><main>
<h1>Sign in with Google</h1>
<p>Local stand-in for Google: no real Google account is used.</p>
${accounts}
<h2>Add new account</h2>
${error}
<form method="post" action="${escapeHtml(input.action)}">${state}
<input type="hidden" name="intent" value="new">
<label for="email">Email</label>
<input id="email" name="email" type="email" required autocomplete="email" value="${escapeHtml(input.values?.email ?? '')}">
<label for="name">Display name</label>
<input id="name" name="name" type="text" autocomplete="name" value="${escapeHtml(input.values?.name ?? '')}">
<div class="actions"><button class="primary" type="submit">Sign in</button></div>
</form>
<form method="post" action="${escapeHtml(input.action)}">${state}<input type="hidden" name="intent" value="cancel">
<div class="actions"><button class="secondary" type="submit">Cancel</button></div></form>
<p class="note">This page is served by the embedded backend for development and tests only.</p>
</main></body></html>`;
}

export function renderMessagePage(title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main></body></html>`;
}

const COLORS = ['#1a73e8', '#d93025', '#188038', '#e37400', '#9334e6', '#007b83'];

/** A round avatar with initials, served at `/_local/avatar?name=…` as the Google profile picture. */
export function avatarSvg(name: string): string {
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]!.toUpperCase())
      .join('') || '?';
  const color = COLORS[[...name].reduce((sum, char) => sum + char.charCodeAt(0), 0) % COLORS.length]!;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><circle cx="48" cy="48" r="48" fill="${color}"/><text x="48" y="60" font-family="sans-serif" font-size="36" fill="#fff" text-anchor="middle">${escapeHtml(initials)}</text></svg>`;
}
