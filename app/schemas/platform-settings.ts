/**
 * The platform settings an admin edits on System Settings (ADR 065), validated on the server with
 * the same ranges as the table's constraints (migrations 20261210000100 to 20261212000100).
 */
import { z } from 'zod';
import { MAX_IMAGE_MB, MAX_PACKAGE_MB } from '~/schemas/listing';

export const MAX_PLATFORM_FEE_PERCENT = 50;
/** The highest price ceiling the table takes (numeric(7, 2)). */
export const MAX_PRICE_CEILING = 99999.99;
export const MAX_MAINTENANCE_MESSAGE_LENGTH = 300;

export const PLATFORM_SETTINGS_MESSAGES = {
  fee: `The platform fee must be a number from 0 to ${MAX_PLATFORM_FEE_PERCENT} with at most two decimals.`,
  priceCeiling: `The price ceiling must be a number from 1 to ${MAX_PRICE_CEILING.toLocaleString('en-US')} with at most two decimals.`,
  imageMb: `The largest image must be a whole number of MB from 1 to ${MAX_IMAGE_MB}.`,
  packageMb: `The largest package must be a whole number of MB from 1 to ${MAX_PACKAGE_MB}.`,
  message: `The maintenance message can be at most ${MAX_MAINTENANCE_MESSAGE_LENGTH} characters.`,
  saved: 'Settings saved.',
  signUpClosed: 'Sign-up is closed for now. If you already have an account, sign in.',
  maintenance: 'AgentMarket is down for maintenance: you can browse, but changes are paused. Please try again later.',
} as const;

/** A checkbox: present ("on") when ticked, absent when not. */
const checkbox = z
  .string()
  .optional()
  .transform((value) => value === 'on');

/** A whole number of MB from 1 to `most` (the storage's cap). */
function wholeMb(most: number, message: 'imageMb' | 'packageMb') {
  return z
    .string()
    .trim()
    .regex(/^\d{1,2}$/, PLATFORM_SETTINGS_MESSAGES[message])
    .transform(Number)
    .refine((value) => value >= 1 && value <= most, PLATFORM_SETTINGS_MESSAGES[message]);
}

export const platformSettingsSchema = z.object({
  platformFeePercent: z
    .string()
    .trim()
    .regex(/^\d{1,2}(\.\d{1,2})?$/, PLATFORM_SETTINGS_MESSAGES.fee)
    .transform(Number)
    .refine((value) => value <= MAX_PLATFORM_FEE_PERCENT, PLATFORM_SETTINGS_MESSAGES.fee),
  maxAgentPrice: z
    .string()
    .trim()
    .regex(/^\d{1,5}(\.\d{1,2})?$/, PLATFORM_SETTINGS_MESSAGES.priceCeiling)
    .transform(Number)
    .refine((value) => value >= 1, PLATFORM_SETTINGS_MESSAGES.priceCeiling),
  maxImageMb: wholeMb(MAX_IMAGE_MB, 'imageMb'),
  maxPackageMb: wholeMb(MAX_PACKAGE_MB, 'packageMb'),
  signupsOpen: checkbox,
  maintenanceMode: checkbox,
  maintenanceMessage: z
    .string()
    .optional()
    .transform((value) => (value ?? '').replace(/\r\n?/g, '\n').trim())
    .refine((value) => value.length <= MAX_MAINTENANCE_MESSAGE_LENGTH, PLATFORM_SETTINGS_MESSAGES.message),
});

export type PlatformSettingsInput = z.infer<typeof platformSettingsSchema>;

/** One change of the settings, in words: who, when, and each setting from → to (the audit log). */
export interface SettingsChange {
  id: string;
  actor: string;
  createdAt: string;
  changes: string[];
}

/** The settings in force (app/server/platform-settings.server.ts reads them). */
export interface PlatformSettings {
  platformFeePercent: number;
  /** The highest price an agent may be listed at. */
  maxAgentPrice: number;
  /** The largest image and package a seller may upload, in MB. */
  maxImageMb: number;
  maxPackageMb: number;
  signupsOpen: boolean;
  maintenanceMode: boolean;
  maintenanceMessage: string | null;
}
