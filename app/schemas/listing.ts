/**
 * The listing form of Upload and Edit: the text fields, validated
 * here on the server (and usable in the browser); the files (thumbnail, images, package) are
 * checked by their bytes in app/server/listing.server.ts with the limits below.
 */
import { z } from 'zod';
import { VERSION_PATTERN } from '~/lib/versions';

export const MAX_AGENT_NAME_LENGTH = 120;
export const MAX_AGENT_DESCRIPTION_LENGTH = 5000;
export const MAX_FEATURES = 20;
export const MAX_FEATURE_LENGTH = 200;
export const MAX_IMAGES = 6;
/** The storage's caps: the most the upload limits (platform settings, in MB) can allow. */
export const MAX_IMAGE_MB = 2;
export const MAX_PACKAGE_MB = 10;
export const MB = 1024 * 1024;
export const MAX_RELEASE_NOTES_LENGTH = 5000;
/** A licence's activations (ADR 073): the seller's limit, 1 to this, or none. */
export const MAX_ACTIVATION_LIMIT = 1000;

export const LISTING_INTENTS = ['draft', 'publish'] as const;
export type ListingIntent = (typeof LISTING_INTENTS)[number];

export const LISTING_MESSAGES = {
  nameRequired: 'Please enter a name for your agent.',
  nameTooLong: `The name can be at most ${MAX_AGENT_NAME_LENGTH} characters.`,
  descriptionRequired: 'Please describe what your agent does.',
  descriptionTooLong: `The description can be at most ${MAX_AGENT_DESCRIPTION_LENGTH.toLocaleString('en-US')} characters.`,
  category: 'Please choose one of the categories.',
  /** The ceiling is a platform setting (System Settings); an agent above a lowered one may keep its price. */
  price: (limits: PriceLimits) =>
    `The price must be a number from 0 to ${priceRangeEnd(limits)} with at most two decimals (for example 19.99).`,
  tooManyFeatures: `List at most ${MAX_FEATURES} features, one per line.`,
  featureTooLong: `Each feature can be at most ${MAX_FEATURE_LENGTH} characters.`,
  version: 'The version must look like 1.0.0 (numbers separated by dots).',
  releaseNotesTooLong: `Release notes can be at most ${MAX_RELEASE_NOTES_LENGTH.toLocaleString('en-US')} characters.`,
  releaseNotesRequired: 'Please describe what changed in this version.',
  versionNotHigher: (latest: string) => `The new version must be higher than ${latest}.`,
  imageType: 'Images must be JPEG, PNG, GIF or WebP files.',
  imageTooLarge: (imageMb: number) => `Each image can be at most ${imageMb} MB.`,
  tooManyImages: `An agent can show at most ${MAX_IMAGES} images besides its thumbnail.`,
  packageType: 'The package must be a JSON file or a ZIP archive.',
  packageTooLarge: (packageMb: number) => `The package file can be at most ${packageMb} MB.`,
  packageRequired: 'Add a package file before publishing: buyers download it.',
  intent: 'Choose Save as draft or Publish.',
  activationLimit: `The activation limit must be a whole number from 1 to ${MAX_ACTIVATION_LIMIT.toLocaleString('en-US')}, or empty for no limit.`,
  check: 'Please check the highlighted fields.',
} as const;

/** A textarea's text as the person typed it (CRLF → LF), trimmed. */
const text = () =>
  z
    .string()
    .optional()
    .transform((value) => (value ?? '').replace(/\r\n?/g, '\n').trim());

/** A field sent zero, one or several times, as a list. */
const list = z.preprocess(
  (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
  z.array(z.string()),
);

/** One feature per line; blank lines dropped. */
export function parseFeatures(value: string): string[] {
  return value
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * What a price may be: at most the ceiling in force (a platform setting), or, for an agent a
 * lowered ceiling left above it, exactly its current price (the database lets an unchanged price
 * stand, and refuses any other above the ceiling).
 */
export interface PriceLimits {
  maxPrice: number;
  /** Edit: the agent's price now. */
  currentPrice?: number;
}

/** The largest files a seller may upload now, in MB (platform settings, at most the caps above). */
export interface UploadLimits {
  imageMb: number;
  packageMb: number;
}

/** What the listing form takes: its price and its files. */
export type ListingLimits = PriceLimits & UploadLimits;

/** The top of the price range in words: "100", or "100 (or its current 149.00)" for an agent a lowered ceiling left above. */
export function priceRangeEnd({ maxPrice, currentPrice }: PriceLimits): string {
  return currentPrice !== undefined && currentPrice > maxPrice
    ? `${maxPrice} (or its current ${currentPrice.toFixed(2)})`
    : String(maxPrice);
}

/** The form's text fields; `categories` are the names of public.categories. */
export function listingSchema(categories: readonly string[], limits: PriceLimits) {
  const priceMessage = LISTING_MESSAGES.price(limits);
  return z.object({
    intent: z.enum(LISTING_INTENTS, LISTING_MESSAGES.intent),
    name: text().pipe(
      z.string().min(1, LISTING_MESSAGES.nameRequired).max(MAX_AGENT_NAME_LENGTH, LISTING_MESSAGES.nameTooLong),
    ),
    description: text().pipe(
      z
        .string()
        .min(1, LISTING_MESSAGES.descriptionRequired)
        .max(MAX_AGENT_DESCRIPTION_LENGTH, LISTING_MESSAGES.descriptionTooLong),
    ),
    category: z
      .string({ error: LISTING_MESSAGES.category })
      .refine((value) => categories.includes(value), LISTING_MESSAGES.category),
    price: z
      .string({ error: priceMessage })
      .trim()
      .regex(/^[0-9]{1,5}(\.[0-9]{1,2})?$/, priceMessage)
      .transform(Number)
      .refine((value) => (value >= 0 && value <= limits.maxPrice) || value === limits.currentPrice, priceMessage),
    features: text()
      .transform(parseFeatures)
      .pipe(
        z
          .array(z.string().max(MAX_FEATURE_LENGTH, LISTING_MESSAGES.featureTooLong))
          .max(MAX_FEATURES, LISTING_MESSAGES.tooManyFeatures),
      ),
    /** How many activations one licence allows (ADR 073); empty = no limit. */
    activation_limit: text()
      .pipe(z.string().regex(/^([0-9]{1,4})?$/, LISTING_MESSAGES.activationLimit))
      .transform((value) => (value === '' ? null : Number(value)))
      .refine(
        (value) => value === null || (value >= 1 && value <= MAX_ACTIVATION_LIMIT),
        LISTING_MESSAGES.activationLimit,
      ),
    version: text().pipe(z.string().regex(VERSION_PATTERN, LISTING_MESSAGES.version).or(z.literal(''))),
    release_notes: text().pipe(z.string().max(MAX_RELEASE_NOTES_LENGTH, LISTING_MESSAGES.releaseNotesTooLong)),
    /** Upload only: the id the new agent gets (its images are stored under it before it exists). */
    draft_id: z.uuid().optional(),
    /** Images already stored (after an earlier error, or the agent's own): kept unless unticked. */
    keep_thumbnail: z.string().optional(),
    keep_images: list,
  });
}

export type ListingForm = z.infer<ReturnType<typeof listingSchema>>;
