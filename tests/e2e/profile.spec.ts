import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS, signUpNewUser, uniqueName } from './support/accounts';
import { expect, expectAccessible, isJavaScriptProject, SERVER_RENDERED, test } from './fixtures';

const TAKEN_MESSAGE = 'This username is already taken. Please choose another one.';
const BIO_MESSAGE = 'Bio must be at most 500 characters';

const unique = (prefix: string) => uniqueName(prefix, test.info().project.name);

const profileForm = (page: Page) => page.locator('form[action="/profile?tab=profile"]');
const sections = (page: Page) => page.getByRole('navigation', { name: 'Profile sections' });
const toast = (page: Page, message: string) => page.getByRole('status').filter({ hasText: message });

/** A document POST as the browser's form would send it (same origin), to reach the server's own checks. */
function postProfile(page: Page, form: Record<string, string>) {
  const origin = new URL(page.url()).origin;
  return page.request.post('/profile?tab=profile', {
    form,
    headers: { Origin: origin, 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'navigate' },
    maxRedirects: 0,
  });
}

test('anonymous visitors are sent to sign in and back', async ({ page }) => {
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/\?auth=sign-in&redirectTo=%2Fprofile$/);
});

test('updates the profile and keeps it after a reload', async ({ page }) => {
  test.slow(); // axe runs in two themes per tab
  const username = await signUpNewUser(page, unique('prof'));
  await page.getByRole('banner').getByLabel(`Account menu for ${username}`).click();
  await page.getByRole('link', { name: 'Profile & Settings' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Profile & Settings' })).toBeVisible();
  await expect(sections(page).getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('button', { name: 'Upload new picture' })).toBeEnabled();
  await expect(page.getByText('JPG, PNG or GIF. Max size 2MB.')).toBeVisible();
  const form = profileForm(page);
  await expect(form.getByLabel('Email')).toBeDisabled();
  await expect(form.getByLabel('Email')).toHaveValue(`${username}@example.com`);
  await expect(page.getByText('Email cannot be changed')).toBeVisible();
  await expect(form.getByLabel('Phone')).toHaveAttribute('type', 'tel');
  await expect(form.getByLabel('Website')).toHaveAttribute('type', 'url');
  await expect(form.getByLabel('Bio')).toHaveAttribute('maxlength', '500');
  await expectAccessible(page);

  const renamed = `${username}x`;
  const values = {
    Username: renamed,
    'First name': 'Ada',
    'Last name': 'Lovelace',
    Phone: '+44 20 7946 0000',
    Location: 'London',
    Website: 'https://ada.example.com',
    Bio: 'Analytical engines and poetry.',
  };
  for (const [label, value] of Object.entries(values)) await form.getByLabel(label).fill(value);
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Profile updated successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/profile\?tab=profile$/);
  await expect(page.getByRole('banner').getByLabel(`Account menu for ${renamed}`)).toBeVisible();

  await page.reload();
  for (const [label, value] of Object.entries(values))
    await expect(profileForm(page).getByLabel(label)).toHaveValue(value);
  // Keeping one's own name counts as available.
  await profileForm(page).getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Profile updated successfully!')).toBeVisible();
});

test('refuses a bio over 500 characters and a taken username, keeping what was typed', async ({ page }) => {
  const username = await signUpNewUser(page, unique('prof'));
  await page.goto('/profile');

  // The server enforces the limit even when the browser's maxlength is bypassed.
  const tooLong = await postProfile(page, { intent: 'profile', username, bio: 'b'.repeat(501) });
  expect(tooLong.status()).toBe(400);
  expect(await tooLong.text()).toContain(BIO_MESSAGE);
  const taken = await postProfile(page, { intent: 'profile', username: DEMO_ACCOUNTS.buyer.username });
  expect(taken.status()).toBe(409);
  expect(await taken.text()).toContain(TAKEN_MESSAGE);

  if (isJavaScriptProject()) {
    await profileForm(page)
      .getByLabel('Bio')
      .evaluate((element) => element.removeAttribute('maxlength'));
    await profileForm(page).getByLabel('Bio').fill('b'.repeat(501));
    await profileForm(page).getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByRole('alert')).toHaveText(BIO_MESSAGE);
    await expect(profileForm(page).getByLabel('Bio')).toHaveValue('b'.repeat(501));
    await profileForm(page).getByLabel('Bio').fill('');
  }

  const form = profileForm(page);
  await form.getByLabel('Username').fill(DEMO_ACCOUNTS.buyer.username);
  await form.getByLabel('Location').fill('Somewhere new');
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('alert')).toHaveText(TAKEN_MESSAGE);
  await expect(profileForm(page).getByLabel('Username')).toHaveValue(DEMO_ACCOUNTS.buyer.username);
  await expect(profileForm(page).getByLabel('Location')).toHaveValue('Somewhere new');
  await expect(profileForm(page).getByLabel('Username')).toHaveAttribute('aria-invalid', 'true');

  // Nothing was stored.
  await page.goto('/profile');
  await expect(profileForm(page).getByLabel('Username')).toHaveValue(username);
  await expect(profileForm(page).getByLabel('Location')).toHaveValue('');
});

test('privacy and notification settings persist', async ({ page }) => {
  test.slow(); // axe runs in two themes per tab
  await signUpNewUser(page, unique('prof'));
  await page.goto('/profile');
  await sections(page).getByRole('link', { name: 'Privacy' }).click();
  await expect(page).toHaveURL(/\/profile\?tab=privacy$/);
  await expect(sections(page).getByRole('link', { name: 'Privacy' })).toHaveAttribute('aria-current', 'page');
  const visibility = page.getByLabel('Profile visibility');
  await expect(visibility.getByRole('option')).toHaveText([
    'Public - Anyone can see your profile',
    'Members Only - Only registered users',
    'Private - Only you can see your profile',
  ]);
  await expect(visibility).toHaveValue('public');
  await expectAccessible(page);
  await visibility.selectOption({ label: 'Private - Only you can see your profile' });
  const showEmail = page.getByRole('switch', { name: 'Show email address' });
  await expect(showEmail).not.toBeChecked();
  await page.getByText('Show email address').click();
  await expect(showEmail).toBeChecked();
  await page.getByRole('button', { name: 'Save Privacy Settings' }).click();
  await expect(toast(page, 'Privacy settings saved successfully!')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Profile visibility')).toHaveValue('private');
  await expect(page.getByRole('switch', { name: 'Show email address' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Show phone number' })).not.toBeChecked();

  await sections(page).getByRole('link', { name: 'Notifications' }).click();
  await expect(page).toHaveURL(/\/profile\?tab=notifications$/);
  const toggle = (name: string) => page.getByRole('switch', { name });
  await expect(toggle('Email notifications')).toBeChecked();
  await expect(toggle('Push notifications')).not.toBeChecked();
  await expect(toggle('Marketing emails')).not.toBeChecked();
  await expect(toggle('Weekly digest')).toBeChecked();
  await expectAccessible(page);
  await page.getByText('Push notifications', { exact: true }).click();
  await page.getByText('Weekly digest', { exact: true }).click();
  await page.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(toast(page, 'Notification preferences saved successfully!')).toBeVisible();
  await page.reload();
  await expect(toggle('Email notifications')).toBeChecked();
  await expect(toggle('Push notifications')).toBeChecked();
  await expect(toggle('Marketing emails')).not.toBeChecked();
  await expect(toggle('Weekly digest')).not.toBeChecked();
});

test(
  'security and data tabs show the password, sessions, export and delete forms',
  SERVER_RENDERED,
  async ({ page }) => {
    test.slow(); // axe runs in two themes per tab
    await signUpNewUser(page, unique('prof'));
    await page.goto('/profile?tab=security');
    await expect(sections(page).getByRole('link', { name: 'Security' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByText('Two-factor authentication is off for your account.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Enable Two-Factor' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Change Password' })).toBeEnabled();
    await expect(page.getByText(/· Current Session/)).toBeVisible();
    await expect(page.getByText(/Signed in .* · Last active /).first()).toBeVisible();
    await expectAccessible(page);

    await sections(page).getByRole('link', { name: 'Data & Export' }).click();
    await expect(page).toHaveURL(/\/profile\?tab=data$/);
    await expect(page.getByRole('link', { name: 'Export Data' })).toHaveAttribute('href', '/profile/export');
    await expect(page.getByRole('heading', { name: 'Danger Zone' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete Account' })).toBeEnabled();
    await expectAccessible(page);
  },
);
