/**
 * Privacy and notifications, with JavaScript on and off, on the commerce server:
 * each profile visibility of a fresh seller seen by the seller, another member and a signed-out
 * visitor (storefront, seller name on the agent page and cards); email and phone only when the
 * seller shows them (storefront, agent page, Contact Seller); and the purchase emails in the
 * outbox only while "Email notifications" is on.
 */
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, test } from '../fixtures';
import { signIn, signUpNewUser, uniqueName } from '../support/accounts';
import { buyFromAgentPage } from '../support/buying';

const agentPath = (n: number) => `/agent/a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const DEMO_SELLER_AGENT = agentPath(1); // CampaignPilot: demo_seller is members only, shows the email
const NOVA_AGENT = agentPath(2); // nova_labs: public, shows neither email nor phone

const unique = (prefix: string) => uniqueName(prefix, test.info().project.name);

async function otherBrowser(browser: Browser, page: Page): Promise<Page> {
  const context = await browser.newContext({
    baseURL: new URL(page.url()).origin,
    javaScriptEnabled: isJavaScriptProject(),
  });
  return context.newPage();
}

/** Turns a settings switch on or off the way a person does: by its label (the box itself is visually hidden). */
async function setSwitch(form: Locator, label: string, on: boolean) {
  const toggle = form.getByRole('switch', { name: new RegExp(`^${label}`) });
  if ((await toggle.isChecked()) !== on) await form.getByText(label, { exact: true }).click();
  await expect(toggle).toBeChecked({ checked: on });
}

async function savePrivacy(page: Page, visibility: string, show: { email: boolean; phone: boolean }) {
  await page.goto('/profile?tab=privacy');
  const form = page.locator('form[action="/profile?tab=privacy"]');
  await form.getByLabel('Profile visibility').selectOption(visibility);
  await setSwitch(form, 'Show email address', show.email);
  await setSwitch(form, 'Show phone number', show.phone);
  await form.getByRole('button', { name: 'Save Privacy Settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Privacy settings saved successfully!' })).toBeVisible();
}

/** The storefront as `page` sees it: the seller's page, or the notice of a hidden profile. */
async function expectStorefront(
  page: Page,
  username: string,
  expected: { shown: string } | { hidden: 'Members only' | 'This profile is private' },
) {
  const response = await page.goto(`/sellers/${username}`);
  if ('shown' in expected) {
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: expected.shown })).toBeVisible();
  } else {
    expect(response?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1, name: expected.hidden })).toBeVisible();
    await expect(page.getByText('Practical agents for privacy tests.')).toHaveCount(0);
  }
}

test('each profile visibility, seen by the seller, another member and a signed-out visitor', async ({
  page,
  browser,
}) => {
  test.slow(); // two sign-ups, a dozen page loads in three browsers, axe
  const seller = await signUpNewUser(page, unique('priv'));
  const name = `Shop of ${seller}`;
  await page.goto('/become-seller');
  const become = page.locator('form[action="/become-seller"]');
  await become.getByLabel('Display name (optional)').fill(name);
  await become.getByLabel('Short pitch (optional)').fill('Practical agents for privacy tests.');
  await become.getByLabel('I accept the seller terms').check();
  await become.getByRole('button', { name: 'Become a seller' }).click();
  await expect(page).toHaveURL(/\/dashboard\/agents$/);
  await page.goto('/profile?tab=profile');
  await page.locator('form[action="/profile?tab=profile"]').getByLabel('Phone').fill('+1 555 0100');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Profile updated successfully!' })).toBeVisible();

  const member = await otherBrowser(browser, page);
  await signUpNewUser(member, unique('privm'));
  const visitor = await otherBrowser(browser, page);

  // Public, showing the email only.
  await savePrivacy(page, 'public', { email: true, phone: false });
  for (const viewer of [member, visitor]) {
    await expectStorefront(viewer, seller, { shown: name });
    const contact = viewer.getByRole('list', { name: `Contact ${name}` });
    await expect(contact.getByRole('link', { name: `${seller}@example.com` })).toHaveAttribute(
      'href',
      `mailto:${seller}@example.com`,
    );
    await expect(contact.getByRole('link', { name: '+1 555 0100' })).toHaveCount(0);
  }

  // Members only, showing the phone only: signed-in members see it all, visitors a notice with Sign In.
  await savePrivacy(page, 'members', { email: false, phone: true });
  await expectStorefront(member, seller, { shown: name });
  const contact = member.getByRole('list', { name: `Contact ${name}` });
  await expect(contact.getByRole('link', { name: '+1 555 0100' })).toHaveAttribute('href', 'tel:+15550100');
  await expect(contact.getByRole('link', { name: `${seller}@example.com` })).toHaveCount(0);
  await expectStorefront(visitor, seller, { hidden: 'Members only' });
  await expect(visitor.getByRole('link', { name: 'Sign In', exact: true }).last()).toHaveAttribute(
    'href',
    new RegExp(`auth=sign-in&redirectTo=%2Fsellers%2F${seller}$`),
  );
  await expect(visitor.getByText('+1 555 0100')).toHaveCount(0);
  await expectAccessible(visitor);

  // Private: only the seller.
  await savePrivacy(page, 'private', { email: true, phone: true });
  await expectStorefront(member, seller, { hidden: 'This profile is private' });
  await expect(member.getByText(`${seller}@example.com`)).toHaveCount(0);
  await expectStorefront(visitor, seller, { hidden: 'This profile is private' });
  await expectStorefront(page, seller, { shown: name });
  await expectAccessible(member);

  await member.context().close();
  await visitor.context().close();
});

test('a members-only seller’s name links and shows the email to members only; nothing not shown', async ({ page }) => {
  // Signed out: the name without a link, no contact details, on the agent page and on the card.
  await page.goto(DEMO_SELLER_AGENT);
  await expect(page.getByText('Sold by demo_seller')).toBeVisible();
  await expect(page.getByRole('link', { name: 'demo_seller', exact: true })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Contact the seller' })).toHaveCount(0);
  await page.goto('/marketplace?q=CampaignPilot');
  const card = page.getByRole('article').filter({ has: page.getByRole('link', { name: 'CampaignPilot' }) });
  await expect(card.getByText('demo_seller', { exact: true })).toBeVisible();
  await expect(card.getByRole('link', { name: 'demo_seller' })).toHaveCount(0);

  await signIn(page, 'buyer', DEMO_SELLER_AGENT);
  await expect(page.getByRole('link', { name: 'demo_seller', exact: true })).toHaveAttribute(
    'href',
    '/sellers/demo_seller',
  );
  const contact = page.getByRole('list', { name: 'Contact the seller' });
  await expect(contact.getByRole('link', { name: 'seller@demo.test' })).toBeVisible();
  await expect(contact.getByRole('link')).toHaveCount(1); // no phone: not shown
  await page.goto('/marketplace?q=CampaignPilot');
  await expect(card.getByRole('link', { name: 'demo_seller' })).toHaveAttribute('href', '/sellers/demo_seller');

  // A public seller who shows neither: linked for everyone, no contact details.
  await page.goto(NOVA_AGENT);
  await expect(page.getByRole('link', { name: 'Nova Labs', exact: true })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Contact the seller' })).toHaveCount(0);
});

/**
 * The emails the development outbox holds for `to`, newest first. The page's request context keeps
 * its connections open between calls (the sign-up's, the previous read's); one the server closes
 * as idle just as the next read goes out on it (a busy machine: the client sees the close late) is
 * reset, ECONNRESET, which Node's HTTP client, unlike a browser, does not retry by itself. A reset
 * read never reached the outbox and reading changes nothing, so it is sent again on a new
 * connection (`maxRetries` retries ECONNRESET only); any answer but 200 still fails.
 */
async function outbox(page: Page, to: string): Promise<{ type: string; subject: string }[]> {
  const response = await page.request.get(`/auth/v1/_local/outbox.json?to=${encodeURIComponent(to)}`, {
    maxRetries: 2,
  });
  expect(response.status(), `the outbox of ${to}`).toBe(200);
  return ((await response.json()) as { emails: { type: string; subject: string }[] }).emails;
}

async function buy(page: Page, path: string): Promise<string> {
  await page.goto(path);
  const name = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
  await buyFromAgentPage(page);
  await expect(page.getByRole('status').filter({ hasText: /^Purchase complete!/ })).toBeVisible();
  return name;
}

test('purchase emails follow the notification preference; Contact Seller shows only what is shown', async ({
  page,
}) => {
  test.slow();
  const buyer = await signUpNewUser(page, unique('mail'));
  const email = `${buyer}@example.com`;

  const first = await buy(page, DEMO_SELLER_AGENT);
  await expect
    .poll(async () => (await outbox(page, email)).map((m) => m.subject))
    .toEqual([`Your receipt for ${first}`]);
  expect((await outbox(page, 'seller@demo.test'))[0]).toMatchObject({
    type: 'sale_notice',
    subject: `You sold ${first}`,
  });

  // Contact Seller: demo_seller shows the email (not the phone), nova_labs neither.
  await page.goto('/dashboard/purchases');
  await page.getByRole('link', { name: `Contact Seller of ${first}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Contact Seller' });
  await expect(dialog.getByRole('link', { name: 'seller@demo.test' })).toBeVisible();
  await expect(dialog.locator('a[href^="tel:"]')).toHaveCount(0);

  // Email notifications off: the next purchase sends this buyer nothing.
  await page.goto('/profile?tab=notifications');
  const form = page.locator('form[action="/profile?tab=notifications"]');
  await setSwitch(form, 'Email notifications', false);
  await form.getByRole('button', { name: /Save/ }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Notification preferences saved successfully!' }),
  ).toBeVisible();
  const second = await buy(page, NOVA_AGENT);
  expect((await outbox(page, 'nova.labs@demo.test'))[0]).toMatchObject({ subject: `You sold ${second}` });
  expect(await outbox(page, email)).toHaveLength(1);

  await page.goto('/dashboard/purchases');
  await page.getByRole('link', { name: `Contact Seller of ${second}` }).click();
  await expect(dialog.getByText('This seller does not share an email address.')).toBeVisible();
  await expect(dialog.locator('a[href^="mailto:"], a[href^="tel:"]')).toHaveCount(0);
});
