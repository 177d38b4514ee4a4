/**
 * The account forms of the profile page's Security and Data & Export tabs: the
 * picture, Change Password, "Sign out of other sessions" and Delete Account.
 */
import { z } from 'zod';
import { newPasswordFields, passwordsMatch, PASSWORDS_DIFFER } from '~/schemas/auth';

export const ACCOUNT_INTENTS = ['picture', 'password', 'sessions', 'delete'] as const;
export type AccountIntent = (typeof ACCOUNT_INTENTS)[number];

/** The picture rule ('JPG, PNG or GIF. Max size 2MB.'), checked on the file's bytes. */
export const MAX_PICTURE_BYTES = 2 * 1024 * 1024;
export const PICTURE_ACCEPT = 'image/jpeg,image/png,image/gif';

export const ACCOUNT_MESSAGES = {
  pictureMissing: 'Choose a picture to upload.',
  pictureTooLarge: 'The picture is too large. Max size 2MB.',
  pictureType: 'The picture must be a JPG, PNG or GIF image.',
  pictureFailed: 'Your picture could not be saved. Please try again.',
  pictureSaved: 'Your picture has been updated.',
  currentPasswordRequired: 'Enter your current password',
  currentPasswordWrong: 'Your current password is not correct.',
  passwordFailed: 'Your password could not be changed. Please try again.',
  passwordChanged: 'Your password has been changed. Your other sessions have been signed out.',
  otherSessionsEnded: 'Your other sessions have been signed out.',
  sessionsFailed: 'Your other sessions could not be signed out. Please try again.',
  confirmUsername: 'Type your username exactly to confirm.',
  lastAdmin: 'You are the last administrator: make someone else an administrator before deleting your account.',
  deleteFailed: 'Your account could not be deleted. Please try again.',
  deleted: 'Your account has been deleted. We are sorry to see you go.',
} as const;

export const ChangePasswordSchema = z
  .object({
    intent: z.literal('password'),
    currentPassword: z.string().min(1, ACCOUNT_MESSAGES.currentPasswordRequired),
    ...newPasswordFields,
  })
  .refine(passwordsMatch, PASSWORDS_DIFFER);

export const PictureSchema = z.object({ intent: z.literal('picture') });
export const OtherSessionsSchema = z.object({ intent: z.literal('sessions') });
export const DeleteAccountSchema = z.object({
  intent: z.literal('delete'),
  confirmUsername: z.string().trim().min(1, ACCOUNT_MESSAGES.confirmUsername),
});
