/**
 * Each agent's own cover picture when its seller has not uploaded one: an SVG that shows what the
 * agent does. Its category gives the motif (chart bars for data analysis, a rising line for
 * sales, a megaphone for marketing, a page and pen for content, speech bubbles for support, coin
 * stacks for finance) and the palette; the agent's id gives its variation (which of the
 * category's colours, the background pattern, the motif's own proportions); its name is the
 * picture's accessible text. Deterministic, so the same agent always looks the same, and free: no
 * file to store, the resource route `/artwork/:category/:seed/:name.svg`
 * (app/routes/resources/artwork.ts) draws it from its URL alone, in a few KB with nothing
 * external. The seeded agents point at it (supabase/seed.sql builds the same path). ADR 017, 059.
 */

export const ARTWORK_WIDTH = 400;
export const ARTWORK_HEIGHT = 300;

interface Palette {
  /** Gradient pairs; the seed picks one. */
  gradients: readonly (readonly [string, string])[];
  /** A light colour for the motif's highlight, legible on the dark panel. */
  accent: string;
}

/** Per category slug. */
const PALETTES: Record<string, Palette> = {
  marketing: {
    gradients: [
      ['#be185d', '#f97316'],
      ['#9d174d', '#fb7185'],
      ['#c2410c', '#f59e0b'],
    ],
    accent: '#fed7aa',
  },
  'data-analysis': {
    gradients: [
      ['#1d4ed8', '#06b6d4'],
      ['#1e3a8a', '#3b82f6'],
      ['#0f766e', '#38bdf8'],
    ],
    accent: '#a5f3fc',
  },
  'content-creation': {
    gradients: [
      ['#6d28d9', '#d946ef'],
      ['#5b21b6', '#8b5cf6'],
      ['#86198f', '#f472b6'],
    ],
    accent: '#f5d0fe',
  },
  sales: {
    gradients: [
      ['#047857', '#65a30d'],
      ['#065f46', '#10b981'],
      ['#166534', '#84cc16'],
    ],
    accent: '#d9f99d',
  },
  'customer-support': {
    gradients: [
      ['#0e7490', '#0ea5e9'],
      ['#155e75', '#22d3ee'],
      ['#1e40af', '#2dd4bf'],
    ],
    accent: '#99f6e4',
  },
  finance: {
    gradients: [
      ['#92400e', '#eab308'],
      ['#78350f', '#f59e0b'],
      ['#854d0e', '#d97706'],
    ],
    accent: '#fde68a',
  },
};
const NEUTRAL: Palette = {
  gradients: [
    ['#334155', '#64748b'],
    ['#1e293b', '#475569'],
    ['#3f3f46', '#71717a'],
  ],
  accent: '#e2e8f0',
};

export interface ArtworkParams {
  category: string;
  seed: string;
  /** The agent's name as the URL carries it: its words joined by '-'. */
  name: string;
}

const SLUG = /^[a-z][a-z-]{0,39}$/;
const SEED = /^[0-9a-f]{1,16}$/;
/** Letters and digits of any script, in words joined by '-'; older URLs carried initials ('LS'). */
const NAME = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u;
const MAX_NAME_LENGTH = 60;

/** The URL value of a category name ('Data Analysis' → 'data-analysis'). */
export function artworkSlug(category: string): string {
  return category
    .trim()
    .toLowerCase()
    .replace(/[^a-z]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
}

/** The name's words, joined by '-', at most 60 characters of whole words ('Month-End Closer' → 'Month-End-Closer'). */
export function artworkName(name: string): string {
  const words = name.match(/[\p{L}\p{N}]+/gu) ?? [];
  let joined = '';
  for (const word of words) {
    const next = joined ? `${joined}-${word}` : word;
    if (next.length > MAX_NAME_LENGTH) break;
    joined = next;
  }
  return joined || 'Agent';
}

/** The artwork's path for an agent (its id's last hex digits are the seed). */
export function agentArtworkPath(agent: { id: string; name: string; category: string }): string {
  const seed =
    agent.id
      .replace(/[^0-9a-f]/gi, '')
      .toLowerCase()
      .slice(-12) || '0';
  const slug = artworkSlug(agent.category) || 'agent';
  return `/artwork/${slug}/${seed}/${artworkName(agent.name)}.svg`;
}

/** The route's parameters when they are well formed, else null (the route answers 404). */
export function parseArtworkParams(params: { category?: string; seed?: string; file?: string }): ArtworkParams | null {
  const name = params.file?.endsWith('.svg') ? params.file.slice(0, -'.svg'.length) : '';
  if (!SLUG.test(params.category ?? '') || !SEED.test(params.seed ?? '')) return null;
  if (name.length > MAX_NAME_LENGTH || !NAME.test(name)) return null;
  return { category: params.category!, seed: params.seed!, name };
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
const between = (next: () => number, low: number, high: number) => round(low + next() * (high - low));

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** A motif's stroke: white unless told, round ends. */
const line = (color = '#fff', width = 7) =>
  `fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"`;
const LINE = line();

/**
 * The motifs, drawn in a 160 × 120 box; `next` varies each agent's drawing (bar heights, the
 * line's path, how many waves, lines or coins), `accent` marks one part of it.
 */
const MOTIFS: Record<string, (next: () => number, accent: string) => string> = {
  'data-analysis': (next, accent) => {
    const bars = Array.from({ length: 5 }, () => between(next, 28, 104));
    const tallest = bars.indexOf(Math.max(...bars));
    const drawn = bars
      .map(
        (height, index) =>
          `<rect x="${18 + index * 28}" y="${round(110 - height)}" width="18" height="${height}" rx="3" fill="${index === tallest ? accent : '#fff'}"/>`,
      )
      .join('');
    return `<path d="M4 2V114H158" ${LINE}/>${drawn}`;
  },
  sales: (next, accent) => {
    const points = Array.from({ length: 5 }, (_, index) => {
      const x = 12 + index * 34;
      const y = round(100 - index * 20 + (index > 0 && index < 4 ? between(next, -12, 12) : 0));
      return [x, y] as const;
    });
    const path = points.map(([x, y], index) => `${index ? 'L' : 'M'}${x} ${y}`).join('');
    const [lastX, lastY] = points.at(-1)!;
    const dots = points
      .slice(0, -1)
      .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="6" fill="${accent}"/>`)
      .join('');
    return (
      `<path d="M4 2V114H158" ${LINE} opacity=".6"/><path d="${path}" ${LINE}/>` +
      `<path d="M${lastX - 22} ${lastY + 2}L${lastX + 4} ${lastY - 4}L${lastX - 4} ${lastY + 22}" ${LINE}/>${dots}`
    );
  },
  marketing: (next, accent) => {
    const waves = 2 + Math.floor(next() * 2);
    const arcs = Array.from({ length: waves }, (_, index) => {
      const x = 112 + index * 16;
      const reach = 22 + index * 14;
      return `<path d="M${x} ${60 - reach}Q${x + 14 + index * 4} 60 ${x} ${60 + reach}" ${line(index ? '#fff' : accent)}/>`;
    }).join('');
    return (
      `<path d="M22 44L92 14V106L22 76Z" fill="#fff"/><rect x="6" y="44" width="20" height="32" rx="4" fill="${accent}"/>` +
      `<path d="M40 82L48 112H64L58 86" fill="#fff"/>${arcs}`
    );
  },
  'content-creation': (next, accent) => {
    const lines = 4 + Math.floor(next() * 3);
    const text = Array.from(
      { length: lines },
      (_, index) =>
        `<path d="M28 ${26 + index * 16}H${round(28 + (index === 0 ? 50 : between(next, 40, 66)))}" ${line(index === 0 ? accent : '#fff', 6)}/>`,
    ).join('');
    return (
      `<rect x="12" y="4" width="92" height="112" rx="10" ${LINE}/>${text}` +
      `<g transform="rotate(35 132 60)"><rect x="124" y="6" width="18" height="84" rx="4" fill="#fff"/>` +
      `<path d="M124 94L133 114L142 94Z" fill="${accent}"/></g>`
    );
  },
  'customer-support': (next, accent) => {
    const width = between(next, 84, 100);
    const dots = [0, 1, 2].map((index) => `<circle cx="${24 + index * 20}" cy="36" r="6" fill="#fff"/>`).join('');
    const replyLines = [0, 1]
      .map(
        (index) =>
          `<path d="M${82} ${80 + index * 16}H${round(82 + (index ? 36 : between(next, 44, 58)))}" stroke="#0f172a" stroke-width="6" stroke-linecap="round" opacity=".55"/>`,
      )
      .join('');
    return (
      `<path d="M14 6H${width - 6}a12 12 0 0 1 12 12V52a12 12 0 0 1-12 12H40L22 80V64H14a12 12 0 0 1-12-12V18A12 12 0 0 1 14 6Z" ${LINE}/>${dots}` +
      `<path d="M72 58H146a12 12 0 0 1 12 12V104a12 12 0 0 1-12 12H138V130L120 116H72a12 12 0 0 1-12-12V70A12 12 0 0 1 72 58Z" fill="${accent}"/>${replyLines}`
    );
  },
  finance: (next, accent) => {
    const stacks = [0, 1, 2].map((stack) => 2 + Math.floor(next() * (stack + 3)));
    const coins = stacks
      .map((count, stack) =>
        Array.from({ length: count }, (_, index) => {
          const cx = 30 + stack * 48;
          const cy = 108 - index * 13;
          return `<ellipse cx="${cx}" cy="${cy}" rx="22" ry="8" fill="${index === count - 1 && stack === 2 ? accent : '#fff'}" stroke="#0f172a" stroke-opacity=".35" stroke-width="2"/>`;
        }).join(''),
      )
      .join('');
    const dollar = 'M42 20c-3-4-14-4-14 3s14 5 14 12-11 8-15 3M35 12v34';
    return `${coins}<circle cx="35" cy="29" r="24" ${line(accent, 6)}/><path d="${dollar}" ${line(accent, 5)}/>`;
  },
};

/** An agent of a category without a motif of its own: a small robot. */
function robot(next: () => number, accent: string): string {
  const eye = between(next, 8, 12);
  return (
    `<path d="M80 6V22" ${LINE}/><circle cx="80" cy="6" r="6" fill="${accent}"/>` +
    `<rect x="26" y="22" width="108" height="80" rx="18" ${LINE}/>` +
    `<circle cx="58" cy="58" r="${eye}" fill="#fff"/><circle cx="102" cy="58" r="${eye}" fill="#fff"/>` +
    `<path d="M62 84H98" ${line(accent)}/><path d="M10 56V74M150 56V74" ${LINE}/>`
  );
}

/** The background's texture: dots, stripes, a grid or rings, each agent's own size. */
function pattern(next: () => number): string {
  const kind = Math.floor(next() * 4);
  const size = Math.round(14 + next() * 14);
  if (kind === 0) {
    return `<pattern id="p" width="${size}" height="${size}" patternUnits="userSpaceOnUse"><circle cx="${size / 2}" cy="${size / 2}" r="${round(size / 7)}" fill="#fff"/></pattern>`;
  }
  if (kind === 1) {
    return `<pattern id="p" width="${size}" height="${size}" patternUnits="userSpaceOnUse" patternTransform="rotate(${Math.round(20 + next() * 50)})"><rect width="${round(size / 4)}" height="${size}" fill="#fff"/></pattern>`;
  }
  if (kind === 2) {
    return `<pattern id="p" width="${size}" height="${size}" patternUnits="userSpaceOnUse"><path d="M${size} 0H0V${size}" fill="none" stroke="#fff" stroke-width="1.5"/></pattern>`;
  }
  return `<pattern id="p" width="${size * 2}" height="${size * 2}" patternUnits="userSpaceOnUse"><circle cx="${size}" cy="${size}" r="${round(size * 0.7)}" fill="none" stroke="#fff" stroke-width="2"/></pattern>`;
}

/** 'data-analysis' → 'Data analysis'. */
const categoryLabel = (slug: string) => {
  const words = slug.replaceAll('-', ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
};

/** The picture itself: the category's gradient and the agent's pattern, the motif on a panel, the name as its title. */
export function agentArtworkSvg({ category, seed, name }: ArtworkParams): string {
  const next = random(seed);
  const palette = PALETTES[category] ?? NEUTRAL;
  const [from, to] = palette.gradients[Math.floor(next() * palette.gradients.length)]!;
  const angle = Math.round(next() * 360);
  const texture = pattern(next);
  const glowX = between(next, 40, 360);
  const glowY = between(next, 30, 270);
  const motif = (MOTIFS[category] ?? robot)(next, palette.accent);
  const title = escapeXml(`${name.replaceAll('-', ' ')}: ${categoryLabel(category)} agent`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${ARTWORK_WIDTH} ${ARTWORK_HEIGHT}" width="${ARTWORK_WIDTH}" height="${ARTWORK_HEIGHT}" role="img" aria-labelledby="t">` +
    `<title id="t">${title}</title>` +
    `<defs><linearGradient id="g" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>${texture}</defs>` +
    `<rect width="${ARTWORK_WIDTH}" height="${ARTWORK_HEIGHT}" fill="url(#g)"/>` +
    `<rect width="${ARTWORK_WIDTH}" height="${ARTWORK_HEIGHT}" fill="url(#p)" opacity=".16"/>` +
    `<circle cx="${glowX}" cy="${glowY}" r="120" fill="#fff" opacity=".1"/>` +
    `<rect x="100" y="60" width="200" height="180" rx="28" fill="#0f172a" opacity=".3"/>` +
    `<g transform="translate(120 88)">${motif}</g>` +
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
