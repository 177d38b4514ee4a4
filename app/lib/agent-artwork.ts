/**
 * Each agent's own cover picture when its seller has not uploaded one: an SVG drawn from the
 * agent's id (shapes and their places), its category (the palette) and its name (the initials).
 * Deterministic, so the same agent always looks the same, and free: no file to store, the
 * resource route `/artwork/:category/:seed/:initials.svg` (app/routes/resources/artwork.ts) draws
 * it from its URL alone. The seeded agents point at it (supabase/seed.sql builds the same path).
 */

export const ARTWORK_WIDTH = 400;
export const ARTWORK_HEIGHT = 300;

/** Gradient pairs per category slug; the seed picks one of each category's three. */
const PALETTES: Record<string, readonly (readonly [string, string])[]> = {
  marketing: [
    ['#be185d', '#f97316'],
    ['#9d174d', '#fb7185'],
    ['#c2410c', '#f59e0b'],
  ],
  'data-analysis': [
    ['#1d4ed8', '#06b6d4'],
    ['#1e3a8a', '#3b82f6'],
    ['#0f766e', '#38bdf8'],
  ],
  'content-creation': [
    ['#6d28d9', '#d946ef'],
    ['#5b21b6', '#8b5cf6'],
    ['#86198f', '#f472b6'],
  ],
  sales: [
    ['#047857', '#65a30d'],
    ['#065f46', '#10b981'],
    ['#166534', '#84cc16'],
  ],
  'customer-support': [
    ['#0e7490', '#0ea5e9'],
    ['#155e75', '#22d3ee'],
    ['#1e40af', '#2dd4bf'],
  ],
  finance: [
    ['#92400e', '#eab308'],
    ['#78350f', '#f59e0b'],
    ['#854d0e', '#d97706'],
  ],
};
const NEUTRAL: readonly (readonly [string, string])[] = [
  ['#334155', '#64748b'],
  ['#1e293b', '#475569'],
  ['#3f3f46', '#71717a'],
];

export interface ArtworkParams {
  category: string;
  seed: string;
  initials: string;
}

const SLUG = /^[a-z][a-z-]{0,39}$/;
const SEED = /^[0-9a-f]{1,16}$/;
const INITIALS = /^[A-Z0-9]{1,2}$/;

/** The URL value of a category name ('Data Analysis' → 'data-analysis'). */
export function artworkSlug(category: string): string {
  return category
    .trim()
    .toLowerCase()
    .replace(/[^a-z]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
}

/** Up to two initials from a name's first two words ('Month-End Closer' → 'MC'). */
export function artworkInitials(name: string): string {
  const words = name.match(/[A-Za-z0-9]+/g) ?? [];
  const initials = words
    .filter((word) => !/^(a|an|and|of|the|for)$/i.test(word))
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
  return initials || 'AI';
}

/** The artwork's path for an agent (its id's hex digits are the seed). */
export function agentArtworkPath(agent: { id: string; name: string; category: string }): string {
  const seed =
    agent.id
      .replace(/[^0-9a-f]/gi, '')
      .toLowerCase()
      .slice(-12) || '0';
  const slug = artworkSlug(agent.category) || 'agent';
  return `/artwork/${slug}/${seed}/${artworkInitials(agent.name)}.svg`;
}

/** The route's parameters when they are well formed, else null (the route answers 404). */
export function parseArtworkParams(params: { category?: string; seed?: string; file?: string }): ArtworkParams | null {
  const initials = params.file?.endsWith('.svg') ? params.file.slice(0, -'.svg'.length) : '';
  if (!SLUG.test(params.category ?? '') || !SEED.test(params.seed ?? '') || !INITIALS.test(initials)) return null;
  return { category: params.category!, seed: params.seed!, initials };
}

/** A small seeded pseudo-random generator (mulberry32): the same seed, the same picture. */
function random(seedHex: string): () => number {
  let state = Number.parseInt(seedHex.slice(-8), 16) ^ (Number.parseInt(seedHex.slice(0, -8) || '0', 16) * 2654435761);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (value: number) => Math.round(value * 10) / 10;

function shape(next: () => number): string {
  const x = round(next() * ARTWORK_WIDTH);
  const y = round(next() * ARTWORK_HEIGHT);
  const size = round(30 + next() * 90);
  const opacity = round(0.08 + next() * 0.16);
  const kind = Math.floor(next() * 4);
  if (kind === 0) return `<circle cx="${x}" cy="${y}" r="${size}" fill="#fff" opacity="${opacity}"/>`;
  if (kind === 1)
    return `<circle cx="${x}" cy="${y}" r="${size}" fill="none" stroke="#fff" stroke-width="${round(6 + next() * 12)}" opacity="${opacity}"/>`;
  if (kind === 2) {
    const angle = Math.round(next() * 90);
    return `<rect x="${round(x - size / 2)}" y="${round(y - size / 2)}" width="${size}" height="${size}" rx="${round(size / 5)}" transform="rotate(${angle} ${x} ${y})" fill="#fff" opacity="${opacity}"/>`;
  }
  return `<path d="M${x} ${round(y - size)}L${round(x + size)} ${round(y + size * 0.7)}L${round(x - size)} ${round(y + size * 0.7)}Z" fill="#fff" opacity="${opacity}"/>`;
}

/** The picture itself: a gradient, five to eight shapes, the initials in the middle. */
export function agentArtworkSvg({ category, seed, initials }: ArtworkParams): string {
  const next = random(seed);
  const palettes = PALETTES[category] ?? NEUTRAL;
  const [from, to] = palettes[Math.floor(next() * palettes.length)]!;
  const shapes = Array.from({ length: 5 + Math.floor(next() * 4) }, () => shape(next)).join('');
  const angle = Math.round(next() * 360);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${ARTWORK_WIDTH} ${ARTWORK_HEIGHT}" width="${ARTWORK_WIDTH}" height="${ARTWORK_HEIGHT}">` +
    `<defs><linearGradient id="g" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
    `<rect width="${ARTWORK_WIDTH}" height="${ARTWORK_HEIGHT}" fill="url(#g)"/>${shapes}` +
    `<circle cx="200" cy="150" r="70" fill="#0f172a" opacity=".28"/>` +
    `<text x="200" y="150" dy=".35em" text-anchor="middle" font-family="system-ui,-apple-system,'Segoe UI',sans-serif" font-size="64" font-weight="700" fill="#fff">${initials}</text>` +
    `</svg>`
  );
}

/** The agent's picture: the seller's thumbnail, else its generated artwork. */
export function agentPicture(agent: {
  id: string;
  name: string;
  category: string | null;
  thumbnailUrl: string | null;
}) {
  return agent.thumbnailUrl ?? agentArtworkPath({ id: agent.id, name: agent.name, category: agent.category ?? '' });
}

/**
 * How a card's picture loads. One in the first screen (the first row of a list) is the page's
 * largest paint: it loads at once and at high priority, since at low priority it waited behind the
 * scripts for a connection on a throttled phone (ADR 045). The others load when near.
 */
export function cardPictureLoading(firstScreen: boolean) {
  return firstScreen ? ({ loading: 'eager', fetchPriority: 'high' } as const) : ({ loading: 'lazy' } as const);
}
