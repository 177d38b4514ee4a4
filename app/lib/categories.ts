/** The six marketplace categories (§2, §9): display name, URL value (lowercase name), looks. */
export const CATEGORIES = [
  {
    name: 'Marketing',
    description: 'Campaign planners, ad copywriters, SEO auditors and social schedulers.',
    icon: 'megaphone',
    colour: 'pink',
  },
  {
    name: 'Data Analysis',
    description: 'Agents that clean data, build dashboards, forecast and explain your numbers.',
    icon: 'chart',
    colour: 'blue',
  },
  {
    name: 'Content Creation',
    description: 'Writers, editors, video scripters and image prompt designers.',
    icon: 'pen',
    colour: 'purple',
  },
  {
    name: 'Sales',
    description: 'Lead qualifiers, outreach sequencers, CRM assistants and deal coaches.',
    icon: 'trending',
    colour: 'green',
  },
  {
    name: 'Customer Support',
    description: 'Help-desk responders, ticket triage, knowledge-base builders and chatbots.',
    icon: 'headset',
    colour: 'orange',
  },
  {
    name: 'Finance',
    description: 'Bookkeeping, invoicing, expense auditing and financial reporting agents.',
    icon: 'wallet',
    colour: 'teal',
  },
] as const;

export type CategoryName = (typeof CATEGORIES)[number]['name'];
export type Category = (typeof CATEGORIES)[number];

/** The URL value of a category: its lowercase name, as the home page links use. */
export function categorySlug(name: CategoryName): string {
  return name.toLowerCase();
}

export function categoryFromSlug(slug: string | null | undefined): CategoryName | null {
  if (!slug) return null;
  const wanted = slug.trim().toLowerCase();
  return CATEGORIES.find((category) => category.name.toLowerCase() === wanted)?.name ?? null;
}

export function marketplaceCategoryHref(name: CategoryName): string {
  return `/marketplace?${new URLSearchParams({ category: categorySlug(name) })}`;
}
