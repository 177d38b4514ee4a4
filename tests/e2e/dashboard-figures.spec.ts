/**
 * The overview's and membership's figures against the seeded data. The expected numbers come
 * from SQL on a twin of the e2e database (same migrations and seed, in memory in this process),
 * written independently of the app's queries.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, isJavaScriptProject, SERVER_RENDERED, test } from './fixtures';
import { signIn } from './support/accounts';
import { useSeedTwin } from './support/seed-twin';

const BUYER_ID = '00000000-0000-4000-8000-000000000001';
const SELLER_ID = '00000000-0000-4000-8000-000000000002';
const TIME_ZONE = 'Pacific/Kiritimati'; // UTC+14: far from the server's zone, so the hint shows
const SERVER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

const twin = useSeedTwin();
const one = twin.one;

const money = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value);

function expectedGreeting(timeZone: string): string {
  const hour =
    Number(new Intl.DateTimeFormat('en-US', { hour: 'numeric', hourCycle: 'h23', timeZone }).format(new Date())) % 24;
  return hour < 12 ? 'Good morning' : hour < 18 ? 'Good afternoon' : 'Good evening';
}

async function expectStat(page: Page, label: string, value: string) {
  const card = page
    .getByRole('region', { name: 'Your figures' })
    .locator('div')
    .filter({ has: page.getByText(label, { exact: true }) });
  await expect(card.locator('dd')).toHaveText(value);
}

test.describe('overview figures', () => {
  test.use({ timezoneId: TIME_ZONE });

  test('buyer: greeting in the local zone and figures from the seeded purchases', SERVER_RENDERED, async ({ page }) => {
    await signIn(page, 'buyer');
    const zone = isJavaScriptProject() ? TIME_ZONE : SERVER_ZONE; // no JavaScript, no hint: the server's zone
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${expectedGreeting(zone)}, demo_buyer!`);
    const completed = `from public.purchases where buyer_id = $1 and status = 'completed'`;
    await expectStat(
      page,
      'Agents Owned',
      String(await one(`select count(distinct agent_id) as value ${completed}`, [BUYER_ID])),
    );
    await expectStat(page, 'Total Spent', money(await one(`select sum(amount) as value ${completed}`, [BUYER_ID])));
    await expectStat(
      page,
      'Reviews Written',
      String(await one('select count(*) as value from public.reviews where buyer_id = $1', [BUYER_ID])),
    );
    // The server's purchase times: the twin's moved by the gap between their seedings.
    const thisMonth = await one(
      `select count(*) as value ${completed}
         and date_trunc('month', (created_at + make_interval(secs => $3)) at time zone $2)
           = date_trunc('month', now() at time zone $2)`,
      [BUYER_ID, zone, await twin.seedingGap(page)],
    );
    await expectStat(page, 'Purchases This Month', String(thisMonth));

    const activity = page.getByRole('region', { name: 'Recent Activity' });
    const latest = await twin.query<{ name: string }>(
      `select a.name from public.purchases p join public.agents a on a.id = p.agent_id
        where p.buyer_id = $1 order by p.created_at desc limit 1`,
      [BUYER_ID],
    );
    await expect(activity.getByText(`Purchased ${latest.rows[0]?.name}`)).toBeVisible();
    const actions = page.getByRole('region', { name: 'Quick Actions' }).getByRole('link');
    await expect(actions).toHaveCount(2);
    await expect(page.getByRole('region', { name: 'Platform Insights' })).toHaveCount(0);
    await expectAccessible(page);
  });

  test('seller: published agents, sales, revenue and average rating', SERVER_RENDERED, async ({ page }) => {
    await signIn(page, 'seller');
    await expect(page.getByText('Seller Account', { exact: true })).toBeVisible();
    const sales = `from public.purchases where seller_id = $1 and status = 'completed'`;
    await expectStat(
      page,
      'Published Agents',
      String(
        await one(`select count(*) as value from public.agents where seller_id = $1 and status = 'published'`, [
          SELLER_ID,
        ]),
      ),
    );
    await expectStat(page, 'Total Sales', String(await one(`select count(*) as value ${sales}`, [SELLER_ID])));
    await expectStat(page, 'Revenue', money(await one(`select sum(amount) as value ${sales}`, [SELLER_ID])));
    const rating = await one(
      `select round(avg(r.rating), 1) as value from public.reviews r join public.agents a on a.id = r.agent_id where a.seller_id = $1`,
      [SELLER_ID],
    );
    await expectStat(page, 'Average Rating', `${rating.toFixed(1)} / 5`);
    await expect(page.getByRole('region', { name: 'Quick Actions' }).getByRole('link')).toHaveCount(5);
    await expect(
      page
        .getByRole('region', { name: 'Recent Activity' })
        .getByText(/^Sold /)
        .first(),
    ).toBeVisible();
  });

  test('admin: platform figures and Platform Insights', SERVER_RENDERED, async ({ page }) => {
    await signIn(page, 'admin');
    await expect(page.getByText('Administrator Account', { exact: true })).toBeVisible();
    // Other suites sign up users on the shared server: at least the seeded accounts.
    const users = Number(
      (
        await page
          .getByRole('region', { name: 'Your figures' })
          .locator('div')
          .filter({ hasText: 'Total Users' })
          .locator('dd')
          .textContent()
      )?.replace(/,/g, ''),
    );
    expect(users).toBeGreaterThanOrEqual(await one('select count(*) as value from public.users'));
    await expectStat(
      page,
      'Published Agents',
      String(await one(`select count(*) as value from public.agents where status = 'published'`)),
    );
    await expectStat(
      page,
      'Platform Revenue',
      money(await one(`select sum(amount) as value from public.purchases where status = 'completed'`)),
    );
    // The server's times: the twin's moved by the gap between their seedings (a row near a cut
    // is on the same side of it in both).
    const gap = await twin.seedingGap(page);
    await expectStat(
      page,
      'Purchases This Week',
      String(
        await one(
          `select count(*) as value from public.purchases
            where status = 'completed' and created_at + make_interval(secs => $1) >= now() - interval '7 days'`,
          [gap],
        ),
      ),
    );
    const insights = page.getByRole('region', { name: 'Platform Insights' });
    await expect(insights).toContainText('Daily Active Users');
    await expect(insights).toContainText('Revenue Growth');
    // The last 30 UTC days, today included (public.platform_daily_figures).
    const newAgents = await one(
      `select count(*) as value from public.agents where status = 'published'
         and ((created_at + make_interval(secs => $1)) at time zone 'utc')::date > (now() at time zone 'utc')::date - 30`,
      [gap],
    );
    await expect(insights.locator('div').filter({ hasText: 'New Agents' }).locator('dd')).toHaveText(String(newAgents));
    await expect(page.getByRole('region', { name: 'Quick Actions' }).getByRole('link')).toHaveCount(6);
    await expect(
      page
        .getByRole('region', { name: 'Recent Activity' })
        .getByText(/ joined$/)
        .first(),
    ).toBeVisible();
    await expectAccessible(page);
  });
});

test('membership: tier, spending, points and the tier comparison', SERVER_RENDERED, async ({ page }) => {
  await signIn(page, 'buyer', '/dashboard/membership');
  const spent = await one(
    `select sum(amount) as value from public.purchases where buyer_id = $1 and status = 'completed'`,
    [BUYER_ID],
  );
  const count = await one(
    `select count(*) as value from public.purchases where buyer_id = $1 and status = 'completed'`,
    [BUYER_ID],
  );
  const figure = (label: string) =>
    page
      .locator('dl > div')
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator('dd');
  const progress = Math.floor((spent % 1000) / 10);
  // The tier is the live subscription's (ADR 018); spending drives the loyalty figures.
  const subscribed = await one(
    `select count(*) as value from public.subscriptions where user_id = $1 and status in ('active', 'past_due')`,
    [BUYER_ID],
  );
  await expect(figure('Current Tier')).toHaveText(subscribed ? /^(Premium|Enterprise)$/ : 'Basic');
  await expect(figure('Total Spent')).toHaveText(money(spent));
  await expect(figure('Purchases')).toHaveText(String(count));
  await expect(figure('Loyalty Points')).toHaveText(Math.floor(spent).toLocaleString('en-US'));
  await expect(figure('Savings Earned')).toHaveText('$0.00');
  await expect(figure('Member Since')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(progress));
  // One target, the next reward: what is left to the next $1,000 (1,000 points) in whole dollars.
  const spendMore = Math.ceil((100_000 - (Math.round(spent * 100) % 100_000)) / 100);
  const milestone = (Math.floor(spent / 1000) + 1) * 1000;
  await expect(
    page.getByText(
      `Spend ${money(spendMore)} more to reach ${milestone.toLocaleString('en-US')} loyalty points and your next reward.`,
    ),
  ).toBeVisible();

  const tiers = page
    .getByRole('region', { name: 'Membership Tiers' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3 }) });
  await expect(tiers.getByRole('heading', { level: 3 })).toHaveText(['Basic', 'Premium', 'Enterprise']);
  await expect(tiers.nth(0)).toContainText('Current');
  await expect(tiers.nth(0).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(tiers.nth(1)).toContainText('Most Popular');
  await expect(tiers.nth(1)).toContainText('$19');
  await expect(tiers.nth(1)).toContainText('10% discount');
  await expect(tiers.nth(2)).toContainText('$99');
  await expect(tiers.nth(2)).toContainText('20% discount');
  await expect(page.getByRole('button', { name: 'Upgrade Now' })).toHaveCount(2);
  // The same target, counted in points.
  const away = milestone - Math.floor(spent);
  expect(away).toBe(spendMore);
  await expect(page.getByRole('region', { name: 'Loyalty Rewards' })).toContainText(
    `${away.toLocaleString('en-US')} ${away === 1 ? 'point' : 'points'} away from your next reward, at ${milestone.toLocaleString('en-US')} points`,
  );
  await expect(page.getByRole('button', { name: 'View Rewards Catalog' })).toBeVisible();
  await expectAccessible(page);
});
