import { Bot } from 'lucide-react';
import { Link } from 'react-router';
import { SITE_NAME } from '~/lib/meta';

/** The brand mark linking home; `compact` hides the name on small screens (header). */
export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <Link to="/" className="flex items-center gap-2 rounded-lg text-lg font-bold" aria-label={`${SITE_NAME} home`}>
      <span className="flex size-9 items-center justify-center rounded-lg bg-brand-600 text-white">
        <Bot aria-hidden="true" className="size-5" />
      </span>
      <span className={compact ? 'hidden sm:inline' : undefined}>{SITE_NAME}</span>
    </Link>
  );
}
