import { Link } from 'react-router';
import { TEXT_LINK } from '~/components/info-page';
import { formatDate } from '~/lib/dashboard-format';
import { policyVersionHref, type PolicyDocument } from '~/lib/policies';
import type { PolicyVersionSummary } from '~/server/policies.server';

/**
 * Every version of a policy, newest first: a link to each (the one `shown` is marked as the
 * current page), its date, whether it is in force, and its summary of changes.
 */
export function PolicyVersionList({
  document,
  versions,
  current,
  shown,
}: {
  document: PolicyDocument;
  versions: readonly PolicyVersionSummary[];
  /** The version in force. */
  current: number;
  /** The version on this page, if any. */
  shown?: number;
}) {
  return (
    <ol className="mt-3 space-y-2 text-sm">
      {versions.map((entry) => (
        <li key={entry.version}>
          {entry.version === shown ? (
            <span className="font-medium" aria-current="page">
              Version {entry.version}
            </span>
          ) : (
            <Link to={policyVersionHref(document, entry.version, current)} className={TEXT_LINK}>
              Version {entry.version}
            </Link>
          )}{' '}
          <span className="text-slate-700 dark:text-slate-300">
            ({formatDate(entry.publishedAt)}
            {entry.version === current ? ', in force' : ''}): {entry.summary}
          </span>
        </li>
      ))}
    </ol>
  );
}
