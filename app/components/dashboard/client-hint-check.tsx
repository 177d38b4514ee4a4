import { CLIENT_HINT_SCRIPT } from '~/lib/client-hints';
import { THEME_SCRIPT } from '~/lib/theme';
import { ZOD_JITLESS_SCRIPT } from '~/lib/zod-client';

/** Renders the time-zone client-hint script in <head>; it carries the CSP nonce. */
export function ClientHintCheck({ nonce }: { nonce: string }) {
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: CLIENT_HINT_SCRIPT }} />;
}

/** Turns zod's compiled parsers off in the browser before any module runs (app/lib/zod-client.ts). */
export function ZodJitless({ nonce }: { nonce: string }) {
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: ZOD_JITLESS_SCRIPT }} />;
}

/** Applies the theme saved in local storage before the first paint (app/lib/theme.ts). */
export function ThemeFromStorage({ nonce }: { nonce: string }) {
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />;
}
