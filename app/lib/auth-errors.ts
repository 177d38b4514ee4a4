/**
 * The sign-in / sign-up error catalogue: what the Auth service says, mapped to what the
 * user reads, with hints where they help.
 */
export interface AuthErrorMessage {
  message: string;
  hints?: string[];
  /** The message sends the reader to an email we sent (demo mode then says where it is). */
  checkEmail?: true;
}

const CATALOGUE: { match: string; result: AuthErrorMessage }[] = [
  {
    match: 'Invalid login credentials',
    result: {
      message: 'The email or password you entered is incorrect. Please check your credentials and try again.',
      hints: [
        'Check your email address for typos',
        'Make sure your password is correct',
        'Try resetting your password if you forgot it',
      ],
    },
  },
  {
    match: 'Email not confirmed',
    result: {
      message:
        "Please check your email and click the confirmation link before signing in. Check your spam folder if you don't see the email.",
      hints: [
        'Check your inbox and spam folder',
        'Click the confirmation link in the email',
        'Try signing up again if the link expired',
      ],
      checkEmail: true,
    },
  },
  {
    match: 'User is banned',
    result: {
      message:
        'This account has been suspended by an administrator, so you cannot sign in. Please contact support if you think this is a mistake.',
    },
  },
  {
    match: 'User already registered',
    result: {
      message: 'An account with this email already exists. Please sign in instead or use a different email address.',
    },
  },
  { match: 'Password should be at least', result: { message: 'Password must be at least 6 characters long.' } },
  { match: 'Unable to validate email address', result: { message: 'Please enter a valid email address.' } },
  {
    match: 'Signup is disabled',
    result: { message: 'New account registration is currently disabled. Please contact support.' },
  },
  {
    match: 'Request rate limit reached',
    result: { message: 'Too many attempts. Please wait a few minutes and try again.' },
  },
  {
    match: 'Email rate limit exceeded',
    result: { message: 'Too many emails sent. Please wait a few minutes before trying again.' },
  },
];

export const UNEXPECTED_ERROR = 'An unexpected error occurred. Please try again.';

export function mapAuthError(rawMessage: string | null | undefined): AuthErrorMessage {
  const message = rawMessage?.trim();
  if (!message) return { message: UNEXPECTED_ERROR };
  const known = CATALOGUE.find(({ match }) => message.toLowerCase().includes(match.toLowerCase()));
  return known ? known.result : { message };
}

/**
 * Beside every message that sends the reader to an email, in demo mode while the emails go to the
 * server log (no SMTP): where they can be read instead (`demoMailNote`, app/server/auth-admin.server.ts).
 */
export const DEMO_MAIL_NOTE = 'Demo mode: emails are shown to the admin in System Settings, and in the server log';

export const SUCCESS_MESSAGES = {
  signedUpConfirm: 'Account created successfully! Please check your email for a confirmation link.',
  signedIn: 'Signed in successfully!',
} as const;
