import { describe, expect, it } from 'vitest';
import type { Category } from './categories';
import {
  QUICK_MESSAGES,
  agentReviewHref,
  contactDraft,
  downloadCountLabel,
  hasActiveFilters,
  mailtoHref,
  purchaseCountLabel,
  purchasesHref,
  responseTimeLabel,
} from './purchase-history';
import { parsePurchaseHistoryParams } from './purchase-history-params.server';

const CATEGORIES: Category[] = ['Marketing', 'Data Analysis', 'Sales'].map((name) => ({
  name,
  slug: name.toLowerCase().replace(' ', '-'),
  description: '',
  icon: '',
  colour: '',
}));
const parse = (query: string) => parsePurchaseHistoryParams(new URLSearchParams(query), CATEGORIES);
const PURCHASE_ID = 'b0000000-0000-4000-8000-000000000001';

describe('purchase history URL parameters', () => {
  it('is "no filter" for an empty query and empty fields (a GET form sends them)', () => {
    const none = { q: null, status: null, category: null, contact: null, page: 1 };
    expect(parse('')).toEqual(none);
    expect(parse('q=&status=&category=&contact=')).toEqual(none);
    expect(parse('q=%20%20')).toEqual(none);
  });

  it('parses every valid parameter', () => {
    expect(
      parse(`q=%20call%20notes%20&status=refunded&category=Data-Analysis&contact=${PURCHASE_ID.toUpperCase()}`),
    ).toEqual({
      q: 'call notes',
      status: 'refunded',
      category: 'data-analysis',
      contact: PURCHASE_ID,
      page: 1,
    });
  });

  it('ignores invalid values instead of failing', () => {
    expect(parse('status=shipped&category=toys&contact=not-a-uuid')).toEqual({
      q: null,
      status: null,
      category: null,
      contact: null,
      page: 1,
    });
    expect(parse('status=COMPLETED').status).toBeNull();
    for (const page of ['0', '-2', 'x', '1.5']) expect(parse(`page=${page}`).page).toBe(1);
    expect(parse(`q=${'x'.repeat(500)}`).q).toHaveLength(100);
  });

  it('builds one canonical URL, in a fixed order, without empty values', () => {
    expect(purchasesHref({ q: null, status: null, category: null, contact: null, page: 1 })).toBe(
      '/dashboard/purchases',
    );
    expect(purchasesHref({ contact: PURCHASE_ID, category: 'sales', status: 'completed', q: 'a b&c', page: 3 })).toBe(
      `/dashboard/purchases?q=a+b%26c&status=completed&category=sales&page=3&contact=${PURCHASE_ID}`,
    );
    const params = parse('category=sales&q=pilot&page=2');
    expect(parse(new URL(purchasesHref(params), 'http://x').search)).toEqual(params);
  });

  it('knows when filters are active (the dialog is no filter)', () => {
    expect(hasActiveFilters({ q: null, status: null, category: null, contact: PURCHASE_ID, page: 2 })).toBe(false);
    expect(hasActiveFilters({ q: null, status: 'failed', category: null, contact: null, page: 1 })).toBe(true);
  });
});

describe('purchase history labels', () => {
  it('counts purchases and downloads', () => {
    expect(purchaseCountLabel(9)).toBe('9 purchases');
    expect(purchaseCountLabel(1)).toBe('1 purchase');
    expect(purchaseCountLabel(0)).toBe('0 purchases');
    expect(downloadCountLabel(3)).toBe('3 times');
    expect(downloadCountLabel(1)).toBe('1 time');
    expect(downloadCountLabel(0)).toBe('0 times');
  });

  it.each([
    [1, 'Responds in about 1 hour'],
    [2, 'Responds in about 2 hours'],
    [12, 'Responds in about 12 hours'],
    [23, 'Responds in about 23 hours'],
    [24, 'Responds within a day'],
    [36, 'Responds within 2 days'],
    [72, 'Responds within 3 days'],
    [168, 'Responds within a week'],
  ])('response time of %d hours: %s', (hours, label) => {
    expect(responseTimeLabel(hours)).toBe(label);
  });

  it('invents no response time', () => {
    expect(responseTimeLabel(null)).toBeNull();
    expect(responseTimeLabel(undefined)).toBeNull();
    expect(responseTimeLabel(0)).toBeNull();
    expect(responseTimeLabel(Number.NaN)).toBeNull();
  });

  it('links Rate Agent back to the page it came from', () => {
    expect(agentReviewHref('a1', '/dashboard/purchases?status=completed&q=x y')).toBe(
      '/agent/a1/review?returnTo=%2Fdashboard%2Fpurchases%3Fstatus%3Dcompleted%26q%3Dx+y',
    );
  });
});

describe('contact mail drafts', () => {
  it('encodes subject and body, with CRLF line breaks', () => {
    const href = mailtoHref('seller+shop@demo.test', { subject: 'Question about A&B?', body: 'Hi,\nline 2 = 100%' });
    expect(href).toBe(
      'mailto:seller%2Bshop@demo.test?subject=Question%20about%20A%26B%3F&body=Hi%2C%0D%0Aline%202%20%3D%20100%25',
    );
    const url = new URL(href);
    expect(url.protocol).toBe('mailto:');
    expect(decodeURIComponent(url.searchParams.get('subject') ?? '')).toBe('Question about A&B?');
  });

  it('writes the subject and a greeting with the purchase date, and the quick message', () => {
    const input = {
      agentName: 'CampaignPilot',
      sellerName: 'demo_seller',
      buyerName: 'demo_buyer',
      purchasedOn: 'Jan 5, 2025',
    };
    const plain = contactDraft(input);
    expect(plain.subject).toBe('Question about CampaignPilot');
    expect(plain.body).toBe(
      'Hello demo_seller,\n\nI purchased CampaignPilot on AgentMarket on Jan 5, 2025.\n\nBest regards,\ndemo_buyer',
    );
    expect(contactDraft({ ...input, message: QUICK_MESSAGES[0] }).body).toContain(
      'Jan 5, 2025.\n\nI need help setting up the AI agent.\n\nBest regards',
    );
    // A question keeps its question mark.
    expect(contactDraft({ ...input, message: QUICK_MESSAGES[1] }).body).toContain(
      'Can you provide additional documentation?\n',
    );
  });

  it('has the four quick messages in their order', () => {
    expect(QUICK_MESSAGES).toEqual([
      'I need help setting up the AI agent',
      'Can you provide additional documentation?',
      'I have a question about customization options',
      'Request for technical support',
    ]);
  });
});
