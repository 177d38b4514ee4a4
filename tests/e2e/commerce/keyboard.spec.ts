/**
 * The keyboard-only journey: sign in, filter the marketplace, buy
 * an agent, rate it and sign out with Tab, Shift+Tab, Enter, Space, arrows and typing alone (no
 * click, no `fill`), with JavaScript on and off. After every key that moves focus, the focused
 * control must show it (an outline or a box shadow, on itself or, for a visually hidden radio
 * button, on its label) and must not be hidden behind the sticky header (WCAG 2.2 2.4.7 and
 * 2.4.11). With JavaScript the sign-in dialog and the order summary are modal: Tab and Shift+Tab
 * stay inside the first, and Escape returns focus to the link that opened either. On the commerce
 * server: it buys.
 */
import type { Page } from '@playwright/test';
import { expect, hydrated, isJavaScriptProject, test } from '../fixtures';
import { NEW_USER_PASSWORD, signUpNewUser, uniqueName } from '../support/accounts';

/** Agents no other spec buys or rates (Content Creation, other sellers than demo_seller): one per project. */
const agentOfProject = () =>
  isJavaScriptProject()
    ? { id: 'a0000000-0000-4000-8000-000000000033', name: 'Technical Docs Assistant' }
    : { id: 'a0000000-0000-4000-8000-000000000035', name: 'Course Creator' };

/** The category radio button's value (its slug). */
const CONTENT_CREATION = 'content creation';

const query = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

/** What the focused element is, and whether its focus can be seen. */
interface FocusState {
  /** `tag#id[name=…]`, its text or label: for messages and for matching. */
  what: string;
  tag: string;
  name: string | null;
  value: string | null;
  href: string | null;
  text: string;
  inDialog: boolean;
  /** Why focus is not visible, or null when it is. */
  problem: string | null;
}

async function focusState(page: Page): Promise<FocusState | null> {
  // What a key started (the skip link sliding away, a focus ring fading in) ends first: on a
  // loaded machine a transition can still be under way when the check looks.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => {})),
    ),
  );
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement) || element === document.body) return null;
    const rect = element.getBoundingClientRect();
    // A visually hidden control (the sr-only radio buttons) shows its focus on its label.
    const labels =
      rect.width <= 1 || rect.height <= 1
        ? [
            element.closest('label'),
            element.id ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`) : null,
          ].filter((node): node is HTMLElement => node instanceof HTMLElement)
        : [element];
    const ring = (node: HTMLElement) => {
      const style = getComputedStyle(node);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      return outline || style.boxShadow !== 'none';
    };
    // Not obscured: some point of the indicator's element is the topmost thing there.
    const uncovered = (node: HTMLElement) => {
      const box = node.getBoundingClientRect();
      const points = [
        [box.left + box.width / 2, box.top + box.height / 2],
        [box.left + 2, box.top + 2],
        [box.right - 2, box.bottom - 2],
      ];
      return points.some(([x, y]) => {
        const top = document.elementFromPoint(x!, y!);
        return top !== null && (node.contains(top) || top.contains(node));
      });
    };
    // What is on top of the indicator's middle, to say what hides it.
    const cover = (node: HTMLElement) => {
      const box = node.getBoundingClientRect();
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return top ? `${top.tagName.toLowerCase()}.${top.className}`.slice(0, 80) : 'nothing (outside the viewport)';
    };
    const shown = labels.find(ring);
    const label = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '';
    const what = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${
      element.getAttribute('name') ? `[name=${element.getAttribute('name')}]` : ''
    } "${label}"`;
    return {
      what,
      tag: element.tagName.toLowerCase(),
      name: element.getAttribute('name'),
      value: element instanceof HTMLInputElement ? element.value : null,
      href: element.getAttribute('href'),
      text: label,
      inDialog: element.closest('dialog') !== null,
      problem: !shown
        ? 'no outline or box shadow'
        : !uncovered(shown)
          ? `hidden behind other content: ${cover(shown)}`
          : null,
    };
  });
}

/** Presses `key` and checks that the control it moved focus to shows it. */
async function press(page: Page, key: string): Promise<FocusState> {
  await page.keyboard.press(key);
  let state = await focusState(page);
  // Something that passes over the page for a moment (the navigation's progress bar, a dialog
  // closing) is not what hides focus; something still on top after half a second is.
  for (let look = 0; look < 5 && state?.problem?.startsWith('hidden behind') === true; look += 1) {
    await page.waitForTimeout(100);
    state = await focusState(page);
  }
  expect(state, `focus after ${key}`).not.toBeNull();
  expect(state!.problem, `focus visible on ${state!.what} after ${key}`).toBeNull();
  return state!;
}

/**
 * A navigation started by a key has ended: its URL, and with JavaScript focus placed again (on
 * the link when it is still there, else on <main>, the app's rule after a client-side
 * navigation). A key pressed before that would land wherever focus was in between.
 */
async function arrived(page: Page, url: string) {
  await expect(page).toHaveURL(url);
  if (!isJavaScriptProject()) return;
  await expect
    .poll(() => page.evaluate(() => document.activeElement !== document.body && document.activeElement?.isConnected))
    .toBe(true);
}

/** Tabs (forwards, or backwards with Shift+Tab) until `wanted` holds, checking focus on every stop. */
async function tabTo(page: Page, wanted: (state: FocusState) => boolean, what: string, key = 'Tab') {
  for (let stop = 0; stop < 200; stop += 1) {
    const state = await press(page, key);
    if (wanted(state)) return state;
  }
  throw new Error(`${what}: not reached with ${key}`);
}

test('sign in, filter, buy, rate and sign out with the keyboard alone', async ({ page }) => {
  test.slow(); // a sign-up, then the whole journey key by key: 45 s on a busy two-core machine
  const js = isJavaScriptProject();
  const agent = agentOfProject();
  const agentPath = `/agent/${agent.id}`;
  // The account is made beforehand (sign-up is not part of the journey), then signed out.
  const username = await signUpNewUser(page, uniqueName('keys', test.info().project.name));
  await page.context().clearCookies();
  await page.goto('/');
  await hydrated(page);

  // Sign in: the header's link opens the sign-in dialog.
  const openSignIn = async () => {
    await tabTo(page, (state) => state.tag === 'a' && state.text === 'Sign In', 'Sign In link');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Welcome back' })).toBeVisible();
    // Without JavaScript that Enter loaded a new page: keys pressed before it has loaded are lost.
    await page.waitForLoadState('load');
  };
  await openSignIn();
  if (js) {
    // Modal: focus never leaves the dialog, either way round; Escape closes it and focus returns.
    for (let stop = 0; stop < 20; stop += 1) expect((await press(page, 'Tab')).inDialog, 'Tab stays inside').toBe(true);
    for (let stop = 0; stop < 20; stop += 1) {
      expect((await press(page, 'Shift+Tab')).inDialog, 'Shift+Tab stays inside').toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeFocused();
    await expect(page).toHaveURL('/');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Welcome back' })).toBeVisible();
  }
  await tabTo(page, (state) => state.name === 'email', 'Email');
  await page.keyboard.type(`${username}@example.com`);
  await tabTo(page, (state) => state.name === 'password', 'Password');
  await page.keyboard.type(NEW_USER_PASSWORD);
  await page.keyboard.press('Enter');
  const accountMenu = page.getByRole('banner').getByLabel(`Account menu for ${username}`);
  await expect(accountMenu).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // With JavaScript focus is on the main heading of the page signed in to (the header is behind
  // it); without, the new page starts at the top.
  if (js) await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeFocused();

  // The marketplace, searched by name and filtered by category (arrow keys in the radio group).
  await tabTo(
    page,
    (state) => state.tag === 'a' && state.text === 'Marketplace',
    'Marketplace link',
    js ? 'Shift+Tab' : 'Tab',
  );
  await page.keyboard.press('Enter');
  await arrived(page, '/marketplace');
  await expect(page.getByRole('heading', { level: 1, name: 'AI Agent Marketplace' })).toBeVisible();
  await tabTo(page, (state) => state.name === 'q' && state.tag === 'input' && !state.what.includes('header'), 'search');
  const word = agent.name.split(' ')[0]!;
  await page.keyboard.type(word);
  await page.keyboard.press('Enter');
  await expect.poll(() => query(page, 'q')).toBe(word);
  if (js) expect((await focusState(page))?.name, 'focus stays in the search box').toBe('q');
  await tabTo(page, (state) => state.name === 'category', 'categories');
  for (let step = 0; step < 20; step += 1) {
    const state = await press(page, 'ArrowDown');
    expect(state.name).toBe('category');
    if (js) await expect.poll(() => query(page, 'category')).toBe(state.value);
    if (state.value === CONTENT_CREATION) break;
  }
  if (!js) {
    await tabTo(page, (state) => state.tag === 'button' && state.text === 'Apply', 'Apply');
    await page.keyboard.press('Enter');
  }
  await expect.poll(() => query(page, 'category')).toBe(CONTENT_CREATION);
  expect(query(page, 'q')).toBe(word);
  const results = page.getByRole('main').getByRole('article');
  await expect(results.filter({ hasText: agent.name })).toHaveCount(1);

  // Buy it on its page: Buy now opens the order summary (with JavaScript a modal: focus moves in,
  // Escape closes it and focus returns to Buy now); Confirm purchase buys.
  await tabTo(page, (state) => state.href === agentPath, `link to ${agent.name}`);
  await page.keyboard.press('Enter');
  await arrived(page, agentPath);
  await tabTo(page, (state) => state.tag === 'a' && state.text.endsWith('Buy now'), 'Buy now');
  await page.keyboard.press('Enter');
  const summary = page.getByRole('dialog', { name: 'Order summary' });
  await expect(summary).toBeVisible();
  if (js) {
    await expect.poll(async () => (await focusState(page))?.inDialog, 'focus moves into the summary').toBe(true);
    await page.keyboard.press('Escape');
    await expect(summary).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Buy now' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(summary).toBeVisible();
  } else {
    await page.waitForLoadState('load');
  }
  await tabTo(page, (state) => state.tag === 'button' && state.text === 'Confirm purchase', 'Confirm purchase');
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: `Purchase complete! ${agent.name} is now in your collection.` }),
  ).toBeVisible();
  await expect(page.getByText('In your collection', { exact: true })).toBeVisible();

  // Rate it from My Collection: the account menu, Dashboard, My Collection, Rate.
  await tabTo(page, (state) => state.text === `Account menu for ${username}`, 'account menu', 'Shift+Tab');
  await page.keyboard.press('Enter');
  await tabTo(page, (state) => state.tag === 'a' && state.text.endsWith('Dashboard'), 'Dashboard');
  await page.keyboard.press('Enter');
  await arrived(page, '/dashboard');
  await tabTo(page, (state) => state.href === '/dashboard/collection', 'My Collection');
  await page.keyboard.press('Enter');
  await arrived(page, '/dashboard/collection');
  await tabTo(page, (state) => state.text === `Rate ${agent.name}`, 'Rate link');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: `Rate ${agent.name}` })).toBeVisible();
  // The first Tab into the group lands on its first star; arrows move and choose.
  await tabTo(page, (state) => state.name === 'rating', 'stars');
  expect((await press(page, 'Space')).value).toBe('1');
  for (const stars of ['2', '3', '4']) expect((await press(page, 'ArrowRight')).value).toBe(stars);
  await tabTo(page, (state) => state.name === 'review', 'review');
  await page.keyboard.type('Clear docs, written from the code.');
  await tabTo(page, (state) => state.tag === 'button' && state.text === 'Save', 'Save');
  await page.keyboard.press('Enter');
  await arrived(page, '/dashboard/collection');
  await expect(page.getByRole('status').filter({ hasText: 'Thanks! Your rating has been saved.' })).toBeVisible();
  const card = results.filter({ has: page.getByRole('heading', { name: agent.name }) });
  await expect(card.getByRole('img', { name: 'Rated 4 out of 5' })).toBeVisible();

  // Sign out through the account menu.
  await tabTo(page, (state) => state.text === `Account menu for ${username}`, 'account menu', 'Shift+Tab');
  await page.keyboard.press('Enter');
  await tabTo(page, (state) => state.tag === 'button' && state.text.endsWith('Sign Out'), 'Sign Out');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
  await expect(accountMenu).toHaveCount(0);
});
