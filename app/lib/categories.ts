/**
 * Marketplace categories. Their one home is the database table `public.categories` (ADR 011):
 * the agents' foreign key, `category_counts`, the benchmark's seeding and the app all read it.
 * The app reads it through `listCategories` (app/server/agents.server.ts, shared and cached) and
 * hands it to components in loader data; nothing here lists the categories.
 */
export interface Category {
  /** What agents store in `category`, and what people read. */
  name: string;
  /** The URL value (`/marketplace?category=<slug>`), lowercase. */
  slug: string;
  description: string;
  /** A key app/components/category-icon.tsx maps to an icon. */
  icon: string;
  /** A key app/components/category-icon.tsx maps to a colour scheme. */
  colour: string;
}

/** The table's columns, in the order of `Category`. */
export const CATEGORY_COLUMNS = 'name, slug, description, icon, colour';

/** The category with this URL value (compared case-insensitively, ignoring surrounding spaces). */
export function categoryBySlug(categories: readonly Category[], slug: string | null | undefined): Category | null {
  if (!slug) return null;
  const wanted = slug.trim().toLowerCase();
  return categories.find((category) => category.slug === wanted) ?? null;
}

export function categoryByName(categories: readonly Category[], name: string): Category | null {
  return categories.find((category) => category.name === name) ?? null;
}

export function marketplaceCategoryHref(category: Pick<Category, 'slug'>): string {
  return `/marketplace?${new URLSearchParams({ category: category.slug })}`;
}
