import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, signIn, signInThroughPage, signOut, type DemoRole } from './support/accounts';
import { expect, expectAccessible, isJavaScriptProject, JAVASCRIPT_ONLY, SERVER_RENDERED, test } from './fixtures';

function unique(prefix: string) {
  return `${prefix}${test.info().project.name}${Date.now().toString(36)}`;
}

/** The form of the dialog or, after a no-JS post, of the full page: both carry the same action. */
function authForm(page: Page, mode: 'sign-in' | 'sign-up' | 'forgot-password') {
  return page.locator(`form[action="/auth/${mode}"]`);
}

async function fillSignUp(page: Page, values: { username: string; email: string; password: string; seller?: boolean }) {
  const form = authForm(page, 'sign-up');
  await form.getByLabel('Username').fill(values.username);
  await form.getByLabel('Email').fill(values.email);
  await form.getByLabel('Password').fill(values.password);
  if (values.seller) await form.getByText('Seller', { exact: true }).click();
  await form.getByRole('button', { name: 'Create Account' }).click();
}

test.describe('sign-in dialog', () => {
  test('opens from the header, toggles modes and closes', async ({ page }) => {
    await page.goto('/pricing');
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/pricing\?auth=sign-in$/);
    const dialog = page.getByRole('dialog', { name: 'Welcome back' });
    await expect(dialog.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'Forgot your password', exact: true })).toBeVisible();
    await expectAccessible(page);
    await dialog.getByRole('link', { name: 'Create an account' }).click();
    const signUp = page.getByRole('dialog', { name: 'Create your account' });
    await expect(signUp.getByText('Password must be at least 6 characters long')).toBeVisible();
    await expect(signUp.getByRole('radio', { name: /Buyer/ })).toBeChecked();
    await signUp.getByRole('link', { name: 'Close' }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('shows every validation message and keeps what was typed', async ({ page }) => {
    await page.goto('/?auth=sign-up');
    // Every invalid field is named above the form, with or without JavaScript.
    await fillSignUp(page, { username: '', email: '', password: '' });
    const alert = page.getByRole('alert');
    await expect(alert.locator('p').first()).toHaveText('All fields are required');
    await expect(alert.getByRole('listitem')).toHaveText([
      'Username is required',
      'Email is required',
      'Password is required',
    ]);
    for (const field of ['Username', 'Email', 'Password']) {
      await expect(authForm(page, 'sign-up').getByLabel(field)).toHaveAttribute('aria-invalid', 'true');
    }
    await fillSignUp(page, { username: 'ab', email: 'someone', password: 'abc' });
    await expect(alert.locator('p').first()).toHaveText('Please correct these 3 fields:');
    await expect(alert.getByRole('listitem')).toHaveText([
      'Username must be at least 3 characters long',
      'Please enter a valid email address.',
      'Password must be at least 6 characters long',
    ]);
    await fillSignUp(page, { username: 'validname', email: 'someone@example.com', password: 'abc' });
    await expect(page.getByRole('alert')).toHaveText('Password must be at least 6 characters long');
    await expect(authForm(page, 'sign-up').getByLabel('Email')).toHaveValue('someone@example.com');
    // A round trip through the server never sends the password back.
    if (!isJavaScriptProject()) await expect(authForm(page, 'sign-up').getByLabel('Password')).toHaveValue('');
    await fillSignUp(page, { username: 'ab', email: 'someone@example.com', password: 'abcdef' });
    await expect(page.getByRole('alert')).toHaveText('Username must be at least 3 characters long');
    await expect(authForm(page, 'sign-up').getByLabel('Username')).toHaveValue('ab');
  });

  test('refuses a wrong password with the catalogue message and hints', async ({ page }) => {
    await page.goto('/?auth=sign-in');
    const form = authForm(page, 'sign-in');
    await form.getByLabel('Email').fill('  BUYER@demo.test ');
    await form.getByLabel('Password').fill('wrong-password');
    await form.getByRole('button', { name: 'Sign In' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(
      'The email or password you entered is incorrect. Please check your credentials and try again.',
    );
    await expect(alert).toContainText('Try resetting your password if you forgot it');
    await expect(authForm(page, 'sign-in').getByLabel('Email')).toHaveValue(/buyer@demo\.test/i);
  });

  for (const role of ['buyer', 'seller', 'admin'] as DemoRole[]) {
    test(`signs in as the demo ${role} and out again`, async ({ page }) => {
      // The roles differ only on the server: the buyer signs in with and without JavaScript, the
      // seller and the administrator in the no-JavaScript run.
      test.skip(role !== 'buyer' && isJavaScriptProject(), 'the no-JavaScript run signs this role in');
      await signInThroughPage(page, DEMO_ACCOUNTS[role], '/help');
      await expect(page).toHaveURL(/\/help$/);
      await expect(page.getByRole('status').filter({ hasText: 'Signed in successfully!' })).toBeVisible();
      const menu = page.getByRole('banner').getByLabel(`Account menu for ${DEMO_ACCOUNTS[role].username}`);
      await menu.click();
      await expect(page.getByRole('link', { name: 'Profile & Settings' })).toBeVisible();
      await menu.click();
      await signOut(page, DEMO_ACCOUNTS[role].username);
      await expect(page).toHaveURL(/\/$/);
      const cookies = await page.context().cookies();
      expect(cookies.filter((cookie) => cookie.name.startsWith('sb-'))).toEqual([]);
    });
  }

  test('signs up a buyer, and a seller through the seller terms', async ({ page }) => {
    for (const seller of [false, true]) {
      const username = unique(seller ? 'seller' : 'buyer');
      await page.goto('/categories?auth=sign-up');
      await fillSignUp(page, { username, email: `${username}@example.com`, password: 'secret-123', seller });
      await expect(page.getByRole('banner').getByLabel(`Account menu for ${username}`)).toBeVisible();
      if (seller) {
        // A sign-up makes a buyer; who chose to sell accepts the seller terms next.
        await expect(page).toHaveURL(/\/become-seller#become-seller-form$/);
        const form = page.locator('#become-seller-form form');
        await form.getByLabel('I accept the seller terms').check();
        await form.getByRole('button', { name: 'Become a seller' }).click();
        await expect(page).toHaveURL(/\/dashboard\/agents$/);
      } else await expect(page).toHaveURL(/\/categories$/);
      // The account type is stored: the dashboard shows the role badge.
      await page.goto('/dashboard');
      await expect(page.getByText(`${seller ? 'Seller' : 'Buyer'} Account`)).toBeVisible();
      await signOut(page, username);
    }
  });

  test('refuses a taken username; an existing email gets the answer a new one would', async ({ page }) => {
    await page.goto('/?auth=sign-up');
    await fillSignUp(page, { username: 'Demo_Buyer', email: `${unique('x')}@example.com`, password: 'secret-123' });
    await expect(page.getByRole('alert')).toHaveText('This username is already taken. Please choose another one.');
    await page.goto('/?auth=sign-up');
    await fillSignUp(page, { username: unique('fresh'), email: 'buyer@demo.test', password: 'secret-123' });
    // Nothing tells that the address has an account (as hosted Supabase with confirmations on).
    await expect(
      page.getByRole('status').filter({ hasText: 'Please check your email for a confirmation link.' }),
    ).toBeVisible();
    await expect(page.getByText('already exists')).toHaveCount(0);
  });
});

test.describe('other sign-in flows', () => {
  test('Continue with Google through the local Google page', async ({ page }) => {
    await page.goto('/?auth=sign-in');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in with Google' })).toBeVisible();
    const email = `${unique('google')}@gmail.example`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Display name').fill('Grace Google');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('banner').getByLabel(/Account menu for/)).toBeVisible();
  });

  test('resets a forgotten password through the emailed link', async ({ page, request }) => {
    const username = unique('forgetful');
    const email = `${username}@example.com`;
    await page.goto('/?auth=sign-up');
    await fillSignUp(page, { username, email, password: 'old-password' });
    await signOut(page, username);

    await page.goto('/?auth=sign-in');
    await authForm(page, 'sign-in').getByRole('link', { name: 'Forgot your password', exact: true }).click();
    await authForm(page, 'forgot-password').getByLabel('Email').fill(email);
    await authForm(page, 'forgot-password').getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'If an account exists for that email' })).toBeVisible();

    const outbox = await request.get(`/auth/v1/_local/outbox.json?to=${encodeURIComponent(email)}`);
    const { emails } = (await outbox.json()) as { emails: { type: string; link: string }[] };
    const recovery = emails.find((message) => message.type === 'recovery');
    expect(recovery?.link).toBeTruthy();
    await page.goto(recovery!.link);
    await expect(page).toHaveURL(/\/auth\/reset-password$/);
    await page.getByLabel('New password', { exact: true }).fill('new-password-1');
    await page.getByLabel('Confirm new password').fill('new-password-1');
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your password has been updated.' })).toBeVisible();
    await signOut(page, username);
    await page.goto('/auth/sign-in');
    await authForm(page, 'sign-in').getByLabel('Email').fill(email);
    await authForm(page, 'sign-in').getByLabel('Password').fill('new-password-1');
    await authForm(page, 'sign-in').getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('banner').getByLabel(`Account menu for ${username}`)).toBeVisible();
  });

  test('a guarded page sends to sign-in and back', async ({ page }) => {
    await page.goto('/dashboard/membership');
    await expect(page).toHaveURL(/\/\?auth=sign-in&redirectTo=%2Fdashboard%2Fmembership$/);
    const form = authForm(page, 'sign-in');
    await form.getByLabel('Email').fill(DEMO_ACCOUNTS.buyer.email);
    await form.getByLabel('Password').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/dashboard\/membership$/);
  });

  test('a link to a guarded page returns there after sign-in', async ({ page }) => {
    await page.goto('/pricing');
    await page.getByRole('link', { name: 'Choose Premium' }).click();
    await expect(page).toHaveURL(/\/\?auth=sign-in&redirectTo=%2Fdashboard%2Fmembership%2Fconfirm%3Ftier%3Dpremium$/);
    const form = authForm(page, 'sign-in');
    await form.getByLabel('Email').fill(DEMO_ACCOUNTS.seller.email);
    await form.getByLabel('Password').fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/dashboard\/membership\/confirm\?tier=premium$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Subscribe to Premium' })).toBeVisible();
  });

  test('a buyer gets Access Denied on an admin page', SERVER_RENDERED, async ({ page }) => {
    await signIn(page, 'buyer');
    const response = await page.goto('/dashboard/users');
    expect(response?.status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await expect(page.getByText("You don't have the required permission: manage_users")).toBeVisible();
    await expect(page.getByRole('link', { name: 'Dashboard' }).last()).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe('session and request safety', () => {
  test('session cookies are HttpOnly and SameSite=Lax', JAVASCRIPT_ONLY, async ({ page }) => {
    // cookie flags do not depend on JavaScript
    await signIn(page, 'buyer');
    const session = (await page.context().cookies()).filter((cookie) => cookie.name.startsWith('sb-'));
    expect(session.length).toBeGreaterThan(0);
    for (const cookie of session) {
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Lax');
    }
  });

  test(
    'a session cookie kept after sign-out no longer signs anyone in',
    JAVASCRIPT_ONLY,
    async ({ request, baseURL }) => {
      // no browser involved
      const signedIn = await request.post('/auth/sign-in', {
        form: { email: DEMO_ACCOUNTS.buyer.email, password: DEMO_PASSWORD, redirectTo: '/profile' },
        maxRedirects: 0,
      });
      expect(signedIn.status()).toBe(303);
      const kept = (await request.storageState()).cookies
        .filter((cookie) => cookie.name.startsWith('sb-'))
        .map((cookie) => `${cookie.name}=${cookie.value}`)
        .join('; ');
      // Replayed by hand, outside the request context's own cookie jar.
      const profileWith = (cookie: string) => fetch(`${baseURL}/profile`, { headers: { cookie }, redirect: 'manual' });

      const before = await profileWith(kept);
      expect(before.status).toBe(200);
      expect(await before.text()).toContain(DEMO_ACCOUNTS.buyer.username);

      const signedOut = await request.post('/auth/sign-out', { maxRedirects: 0 });
      expect(signedOut.status()).toBe(302);
      const after = await profileWith(kept);
      expect(after.status).toBe(302);
      expect(after.headers.get('location')).toContain('auth=sign-in');
    },
  );

  test('a cross-origin sign-in POST is refused', async ({ request }) => {
    const response = await request.post('/auth/sign-in', {
      form: { email: DEMO_ACCOUNTS.buyer.email, password: DEMO_PASSWORD },
      headers: { Origin: 'http://evil.example' },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
  });

  test('redirectTo never leaves the site', SERVER_RENDERED, async ({ request }) => {
    for (const target of ['//evil.example', '/\\evil.example', '/\t/evil.example', 'https://evil.example']) {
      const response = await request.post('/auth/sign-in', {
        form: { email: DEMO_ACCOUNTS.seller.email, password: DEMO_PASSWORD, redirectTo: target },
        maxRedirects: 0,
      });
      expect(response.status()).toBe(303);
      const location = new URL(response.headers().location!, 'http://127.0.0.1');
      expect(location.hostname).toBe('127.0.0.1');
    }
  });
});

test(
  'too many sign-in attempts for one email answer 429 with a clear message',
  SERVER_RENDERED,
  async ({ request }) => {
    // HTTP requests alone: no page, so JavaScript makes no difference
    const email = `${unique('hammer')}@example.com`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 26; attempt++) {
      const response = await request.post('/auth/sign-in', { form: { email, password: 'wrong-password' } });
      statuses.push(response.status());
      if (response.status() === 429) {
        expect(await response.text()).toContain('Too many attempts. Please wait a minute and try again.');
        expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, 25).every((status) => status === 400)).toBe(true);
    expect(statuses[25]).toBe(429);
  },
);

test(
  'content shown by permission: sellers get their upload link, others the sign-up',
  SERVER_RENDERED,
  async ({ page }) => {
    await page.goto('/become-seller');
    await expect(page.getByRole('link', { name: 'Start selling' })).toHaveAttribute(
      'href',
      '/become-seller?auth=sign-up&accountType=seller',
    );
    await signIn(page, 'seller', '/become-seller');
    await expect(page.getByRole('link', { name: 'Upload an agent' })).toHaveAttribute('href', '/dashboard/upload');
    await expect(page.getByRole('link', { name: 'Start selling' })).toHaveCount(0);
  },
);
