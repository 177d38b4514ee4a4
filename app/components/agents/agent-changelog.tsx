/**
 * The agent page's Changelog: every version, newest first, with its date
 * and release notes. Those who may download the agent (its buyers, its seller, admins) get a
 * Download link per version: the latest without `?version`, earlier ones with it.
 */
import { formatDate } from '~/lib/dashboard-format';

export interface ChangelogItem {
  version: string;
  releaseNotes: string;
  createdAt: string;
}

export function AgentChangelog({
  agentId,
  entries,
  canDownload,
  timeZone,
}: {
  agentId: string;
  entries: ChangelogItem[];
  canDownload: boolean;
  timeZone: string;
}) {
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="changelog-title" className="flex flex-col gap-4">
      <h2 id="changelog-title" className="text-2xl font-bold">
        Changelog
      </h2>
      <ol className="flex flex-col gap-4" aria-label="Versions, newest first">
        {entries.map((entry, index) => (
          <li
            key={entry.version}
            className="rounded-xl border border-slate-200 p-4 dark:border-slate-700"
            data-testid="changelog-entry"
          >
            <div className="flex flex-wrap items-baseline justify-between gap-3">
              <h3 className="font-semibold">
                Version {entry.version}
                {index === 0 ? (
                  <span className="ml-2 text-sm font-normal text-slate-700 dark:text-slate-300">(latest)</span>
                ) : null}
              </h3>
              <p className="text-sm text-slate-700 dark:text-slate-300">
                <time dateTime={entry.createdAt}>{formatDate(entry.createdAt, timeZone)}</time>
              </p>
            </div>
            {entry.releaseNotes ? (
              <p className="mt-2 whitespace-pre-line text-slate-800 dark:text-slate-200">{entry.releaseNotes}</p>
            ) : null}
            {canDownload ? (
              <a
                href={
                  index === 0
                    ? `/agent/${agentId}/download`
                    : `/agent/${agentId}/download?${new URLSearchParams({ version: entry.version })}`
                }
                className="mt-2 inline-block text-sm font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300"
                aria-label={`Download version ${entry.version}`}
              >
                Download
              </a>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
