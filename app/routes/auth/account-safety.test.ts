/**
 * The app's sign-up and reset-password routes against the embedded backend (this project's
 * config.toml: confirmations off, secure_password_change on), through their real actions:
 * - sign-up with an address that has an account answers as a new one without a session would
 *   (hosted Supabase with confirmations on), not "an account with this email already exists";
 * - /auth/reset-password sets a new password only in the session a reset link or emailed code
 *   started: a session signed in with the password (stolen cookies, a shared computer) is sent
 *   to the profile's Security settings and the password stays;
 * - the profile's password change (current password given) keeps working.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '@agentmarket/supabase-embedded';
import { uniqueEmail } from '../../../tests/support/auth-helpers';
import { anonClient, pkceClient, serviceClient } from '../../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../../tests/support/contract-target';
import { routeAnswer, routeContext, type TestViewer } from '../../../tests/support/route-context';
import { DEMO_MAIL_NOTE, SUCCESS_MESSAGES } from '~/lib/auth-errors';
import { demoMailNote } from '~/server/auth-admin.server';
import { RESET_LINK_SENT_MESSAGE } from '~/server/auth.server';
import { changePassword } from '~/server/account.server';
import * as forgotPassword from './forgot-password';
import * as resetPassword from './reset-password';
import * as signUp from './sign-up';

const PASSWORD = 'account-safety-password';

describe.skipIf(isHostedTarget)('sign-up and password reset', () => {
  let target: ContractTarget;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
  });
  afterAll(() => target?.close());

  function args(viewer: TestViewer | null, client: SupabaseClient, path: string, fields: Record<string, string>) {
    const url = new URL(`http://localhost${path}`);
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    return {
      request: new Request(url, { method: 'POST', body }),
      context: routeContext(target, viewer, client),
      url,
      params: {},
    } as never;
  }

  async function newUser(prefix: string): Promise<TestViewer> {
    const email = uniqueEmail(prefix);
    const created = await serviceClient(target).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    return { id: created.data.user!.id, email, role: 'buyer' };
  }

  const canSignIn = async (email: string, password: string) =>
    !(await anonClient(target).auth.signInWithPassword({ email, password })).error;

  it('answers a sign-up with an existing address as it would a new one, saying nothing of the account', async () => {
    const fields = (email: string) => ({
      email,
      password: 'sign-up-password',
      username: `u${crypto.randomUUID().slice(0, 8)}`,
      accountType: 'buyer',
    });
    const existing = await routeAnswer(
      signUp.action(args(null, anonClient(target), '/auth/sign-up', fields('buyer@demo.test'))),
    );
    expect(existing.status).toBe(200);
    expect(JSON.stringify(existing.result)).not.toMatch(/already|exists|registered/i);
    expect(existing.result).toMatchObject({ status: 'success', message: SUCCESS_MESSAGES.signedUpConfirm });
    // Not the demo (DEMO_MODE unset here): no word on where the email went.
    expect(existing.result).not.toHaveProperty('note');
    // The account is untouched: its password still signs in.
    expect(await canSignIn('buyer@demo.test', 'demo-password')).toBe(true);
  });

  it('says where the emails went beside "check your email" in demo mode only, while they go to the server log', async () => {
    const embedded = { url: target.url, anonKey: target.anonKey, serviceRoleKey: target.serviceRoleKey, fetch };
    expect(await demoMailNote(embedded, true)).toBe(DEMO_MAIL_NOTE);
    expect(await demoMailNote(embedded, false)).toBeUndefined();
    // Hosted Supabase (no backend in process to ask) sends its emails: nothing to add.
    expect(await demoMailNote({ url: target.url, anonKey: target.anonKey }, true)).toBeUndefined();
    // The reset form's answer outside demo mode: the message alone.
    const reset = await routeAnswer(
      forgotPassword.action(args(null, anonClient(target), '/auth/forgot-password', { email: 'buyer@demo.test' })),
    );
    expect(reset.result).toMatchObject({ status: 'success', message: RESET_LINK_SENT_MESSAGE });
    expect(reset.result).not.toHaveProperty('note');
  });

  it('does not set a new password from a session signed in with the password', async () => {
    const viewer = await newUser('not-recovering');
    const client = anonClient(target);
    expect((await client.auth.signInWithPassword({ email: viewer.email, password: PASSWORD })).error).toBeNull();
    const answer = await routeAnswer(
      resetPassword.action(
        args(viewer, client, '/auth/reset-password', { password: 'taken-over-1', confirmPassword: 'taken-over-1' }),
      ),
    );
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/profile?tab=security');
    expect(await canSignIn(viewer.email, PASSWORD)).toBe(true);
    expect(await canSignIn(viewer.email, 'taken-over-1')).toBe(false);
  });

  it('sets it in the session a PKCE reset link started (the app callback exchanges its code)', async () => {
    const viewer = await newUser('recovering-link');
    const client = pkceClient(target);
    expect((await client.auth.resetPasswordForEmail(viewer.email)).error).toBeNull();
    const [mail] = await readOutbox(target.backend!.db, { to: viewer.email, limit: 1 });
    const followed = await fetch(mail!.link, { redirect: 'manual' });
    const code = new URL(followed.headers.get('location')!).searchParams.get('code')!;
    expect((await client.auth.exchangeCodeForSession(code)).error).toBeNull();
    const answer = await routeAnswer(
      resetPassword.action(
        args(viewer, client, '/auth/reset-password', { password: 'link-reset-1', confirmPassword: 'link-reset-1' }),
      ),
    );
    expect(answer).toMatchObject({ status: 303, location: '/dashboard' });
    expect(await canSignIn(viewer.email, 'link-reset-1')).toBe(true);
  });

  it('sets it in the session the emailed code started, and the profile changes it with the current one', async () => {
    const viewer = await newUser('recovering');
    const client = anonClient(target);
    expect((await client.auth.resetPasswordForEmail(viewer.email)).error).toBeNull();
    const [mail] = await readOutbox(target.backend!.db, { to: viewer.email, limit: 1 });
    expect((await client.auth.verifyOtp({ email: viewer.email, token: mail!.otp, type: 'recovery' })).error).toBeNull();
    const answer = await routeAnswer(
      resetPassword.action(
        args(viewer, client, '/auth/reset-password', { password: 'recovered-1', confirmPassword: 'recovered-1' }),
      ),
    );
    expect(answer).toMatchObject({ status: 303, location: '/dashboard' });
    expect(await canSignIn(viewer.email, 'recovered-1')).toBe(true);

    const signedIn = anonClient(target);
    expect((await signedIn.auth.signInWithPassword({ email: viewer.email, password: 'recovered-1' })).error).toBeNull();
    const connection = { url: target.url, anonKey: target.anonKey, serviceRoleKey: target.serviceRoleKey };
    const changed = await changePassword(signedIn as never, connection as never, viewer, 'recovered-1', 'changed-2');
    expect(changed).toEqual({ ok: true });
    expect(await canSignIn(viewer.email, 'changed-2')).toBe(true);
  });
});
