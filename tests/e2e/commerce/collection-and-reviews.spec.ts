/**
 * My Collection (`/dashboard/collection`) and the rating form
 * (`/agent/:agentId/review`), with JavaScript on and off. The demo buyer is read only here (six
 * completed purchases in supabase/seed.sql; nobody else's tests change them); whatever writes
 * uses a fresh account and an agent no other spec rates, a different one per project.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, JAVASCRIPT_ONLY, SERVER_RENDERED, test } from '../fixtures';
import { signIn, signUpNewUser, uniqueName } from '../support/accounts';
import { buyFromAgentPage } from '../support/buying';

const agentPath = (n: number) => `/agent/a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const CAMPAIGN_PILOT = agentPath(1); // demo_buyer: completed, rated 5 with a review
const CALL_NOTES_COPILOT = agentPath(40); // demo_buyer: completed, not rated
const SEO_SENTINEL = agentPath(2); // published, not owned by demo_buyer

/** Agents without reviews in the seed that no other spec buys or rates: one per project. */
/** The agent this project rates (nobody else reviews it): one per JavaScript mode. */
const ratedHere = () =>
  isJavaScriptProject()
    ? { path: agentPath(46), name: 'Renewal Radar' }
    : { path: agentPath(59), name: 'Community Moderator' };

const NOT_BUYER = 'Only buyers who completed a purchase of this agent can rate it.';
const SAVED = 'Thanks! Your rating has been saved.';

const cards = (page: Page) => page.getByRole('main').getByRole('article');
const card = (page: Page, name: string) => cards(page).filter({ has: page.getByRole('heading', { name }) });

test.describe('My Collection', () => {
  test('the demo buyer sees their completed purchases, rated or ready to rate', SERVER_RENDERED, async ({ page }) => {
    await signIn(page, 'buyer', '/dashboard/collection');
    await expect(page.getByRole('heading', { level: 1, name: 'My Collection' })).toBeVisible();
    await expect(page.getByText('6 AI agents in your collection', { exact: true })).toBeVisible();
    await expect(cards(page)).toHaveCount(6);
    await expect(page.getByRole('navigation', { name: 'Dashboard' }).first()).toBeAttached();

    // Pending, failed and refunded purchases are not in the collection.
    for (const name of ['Cash Flow Forecaster', 'Influencer Matchmaker', 'Dashboard Narrator']) {
      await expect(card(page, name)).toHaveCount(0);
    }

    const rated = card(page, 'CampaignPilot');
    await expect(rated.getByRole('img', { name: 'CampaignPilot thumbnail' })).toBeVisible();
    await expect(rated.getByText('Your rating')).toBeVisible();
    await expect(rated.getByRole('img', { name: 'Rated 5 out of 5' })).toBeVisible();
    await expect(rated).toContainText('Plans, launches and tunes multi-channel ad campaigns');
    await expect(rated).toContainText('by demo_seller');
    await expect(rated).toContainText('Marketing');
    await expect(rated).toContainText(/Purchased\s*[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await expect(rated).toContainText('$149.00');
    await expect(rated.getByRole('link', { name: 'Download CampaignPilot' })).toHaveAttribute(
      'href',
      `${CAMPAIGN_PILOT}/download`,
    );
    await expect(rated.getByRole('link', { name: /^Rate/ })).toHaveCount(0);

    const unrated = card(page, 'Call Notes Copilot');
    await expect(unrated.getByText('Your rating')).toHaveCount(0);
    await expect(unrated).toContainText('$109.00');
    await expect(unrated.getByRole('link', { name: 'Rate Call Notes Copilot' })).toHaveAttribute(
      'href',
      `${CALL_NOTES_COPILOT}/review?returnTo=/dashboard/collection`,
    );
    // The agent archived since the purchase stays in the collection.
    await expect(card(page, 'Cold Call Trainer')).toHaveCount(1);
    await expectAccessible(page);
  });

  test('a new buyer has an empty collection with a way to the marketplace', SERVER_RENDERED, async ({ page }) => {
    await signUpNewUser(page, uniqueName('empty', test.info().project.name));
    await page.goto('/dashboard/collection');
    await expect(page.getByText('0 AI agents in your collection', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No agents in your collection yet' })).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
    await expectAccessible(page);
    await page.getByRole('main').getByRole('link', { name: 'Browse Marketplace' }).click();
    await expect(page).toHaveURL(/\/marketplace$/);
  });

  test('a failed load shows Error Loading Collection, never sample data, and Try Again recovers', async ({
    page,
    context,
  }) => {
    await signIn(page, 'buyer', '/');
    await context.addCookies([{ name: 'am_fault', value: 'collection', url: test.info().project.use.baseURL! }]);
    const response = await page.goto('/dashboard/collection');
    expect(response?.status()).toBe(503);
    const alert = page.getByRole('alert').filter({ hasText: 'Error Loading Collection' });
    await expect(alert.getByRole('heading', { name: 'Error Loading Collection' })).toBeVisible();
    await expect(alert.getByText('Injected fault: the collection could not be read.')).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
    await expect(page.getByText(/AI agents? in your collection/)).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Dashboard' }).first()).toBeAttached();
    await expectAccessible(page);

    await context.clearCookies({ name: 'am_fault' });
    await alert.getByRole('link', { name: 'Try Again' }).click();
    await expect(page.getByText('6 AI agents in your collection', { exact: true })).toBeVisible();
  });

  test('six skeleton cards while a client-side navigation loads the collection', JAVASCRIPT_ONLY, async ({ page }) => {
    // client-side navigation needs JavaScript
    await signIn(page, 'buyer');
    await expect(page).toHaveURL(/\/dashboard$/);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/dashboard/collection.data',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page
      .getByRole('main')
      .getByRole('link', { name: /My Collection/ })
      .first()
      .click();
    const skeleton = page.getByRole('list', { name: 'Loading your collection' });
    await expect(skeleton.getByTestId('skeleton-card')).toHaveCount(6);
    await expect(page.getByRole('heading', { level: 1, name: 'My Collection' })).toBeVisible();
    release();
    await expect(page.getByText('6 AI agents in your collection', { exact: true })).toBeVisible();
    await expect(page.getByTestId('skeleton-card')).toHaveCount(0);
    await expect(cards(page)).toHaveCount(6);
  });
});

test.describe('rating an agent', () => {
  test('signed out, the rating form sends to sign in and back', async ({ page }) => {
    await page.goto(`${CALL_NOTES_COPILOT}/review`);
    await expect(page).toHaveURL(
      `/?${new URLSearchParams({ auth: 'sign-in', redirectTo: `${CALL_NOTES_COPILOT}/review` })}`,
    );
  });

  test('the form shows the agent and, for a buyer who rated before, their rating', async ({ page }) => {
    await signIn(page, 'buyer', `${CAMPAIGN_PILOT}/review?returnTo=/dashboard/collection`);
    await expect(page.getByRole('heading', { level: 1, name: 'Rate CampaignPilot' })).toBeVisible();
    const stars = page.getByRole('group', { name: 'Your rating' });
    for (const label of ['1 star', '2 stars', '3 stars', '4 stars', '5 stars']) {
      await expect(stars.getByRole('radio', { name: label, exact: true })).toBeAttached();
    }
    await expect(stars.getByRole('radio', { name: '5 stars' })).toBeChecked();
    await expect(page.getByLabel('Your review (optional)')).toHaveValue(/^CampaignPilot took over our weekly budget/);
    await expect(page.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/dashboard/collection');
    await expectAccessible(page);
  });

  test('a buyer who does not own the agent is refused, on the page and in the action', async ({ page }) => {
    await signUpNewUser(page, uniqueName('norate', test.info().project.name));
    const { path } = ratedHere();
    const response = await page.goto(`${path}/review`);
    expect(response?.status()).toBe(403);
    await expect(page.getByRole('alert').filter({ hasText: NOT_BUYER })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
    await expect(page.getByRole('radio')).toHaveCount(0);

    // A forged submission is refused too, and nothing is written.
    const origin = test.info().project.use.baseURL!;
    const posted = await page.request.post(`${path}/review`, {
      form: { rating: '5', review: 'forged' },
      headers: { Origin: origin },
    });
    expect(posted.status()).toBe(403);
    expect(await posted.text()).toContain(NOT_BUYER);
    await page.goto(path);
    await expect(page.getByText('forged')).toHaveCount(0);

    // The demo buyer is refused for an agent they did not buy as well (read only).
    await page.context().clearCookies();
    await signIn(page, 'buyer', `${SEO_SENTINEL}/review`);
    await expect(page.getByRole('alert').filter({ hasText: NOT_BUYER })).toBeVisible();
  });

  test('a new buyer buys, rates (text escaped), sees the new average, and edits the rating', async ({ page }) => {
    const agent = ratedHere();
    const username = await signUpNewUser(page, uniqueName('rater', test.info().project.name));
    await page.goto(agent.path);
    await buyFromAgentPage(page);
    await expect(page.getByText('In your collection', { exact: true })).toBeVisible();

    await page.goto('/dashboard/collection');
    await expect(page.getByText('1 AI agent in your collection', { exact: true })).toBeVisible();
    await card(page, agent.name)
      .getByRole('link', { name: `Rate ${agent.name}` })
      .click();
    await expect(page).toHaveURL(`${agent.path}/review?returnTo=/dashboard/collection`);
    await expect(page.getByRole('heading', { level: 1, name: `Rate ${agent.name}` })).toBeVisible();

    // No star chosen: the message beside the stars, the typed review kept.
    const review = page.getByLabel('Your review (optional)');
    await review.fill('Solid agent. <b>html</b> stays text.');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Please choose a rating from 1 to 5 stars.').first()).toBeVisible();
    await expect(review).toHaveValue('Solid agent. <b>html</b> stays text.');

    await page.locator('label[for="rating-4"]').click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/dashboard\/collection$/);
    await expect(page.getByRole('status').filter({ hasText: SAVED })).toBeVisible();
    const owned = card(page, agent.name);
    await expect(owned.getByRole('img', { name: 'Rated 4 out of 5' })).toBeVisible();
    await expect(owned.getByRole('link', { name: `Rate ${agent.name}` })).toHaveCount(0);

    await page.goto(agent.path);
    const reviews = page.locator('#reviews');
    await expect(reviews.getByText('4.0', { exact: true })).toBeVisible();
    await expect(reviews.getByText('1 review', { exact: true })).toBeVisible();
    const mine = reviews.getByRole('article', { name: `Review by ${username}` });
    await expect(mine.getByText('Solid agent. <b>html</b> stays text.', { exact: true })).toBeVisible();
    await expect(mine.locator('b')).toHaveCount(0);

    // Editing: the form comes pre-filled and saving goes back to the agent's reviews.
    await page.goto(`${agent.path}/review`);
    await expect(page.getByRole('radio', { name: '4 stars' })).toBeChecked();
    await expect(review).toHaveValue('Solid agent. <b>html</b> stays text.');
    await page.locator('label[for="rating-5"]').click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(`${agent.path}#reviews`);
    await expect(page.getByRole('status').filter({ hasText: SAVED })).toBeVisible();
    await expect(reviews.getByText('5.0', { exact: true })).toBeVisible();
    await expect(reviews.getByText('1 review', { exact: true })).toBeVisible();
    await expect(reviews.getByRole('article', { name: `Review by ${username}` })).toHaveCount(1);
  });
});
