/**
 * The agent page's "What's inside": read from the current version's package manifest before
 * anyone buys it (app/server/agent-detail.server.ts `readPackageInside`): the model family it is
 * made for, its tools with what each does, and its first example conversation. The instructions
 * and the README stay with buyers. All of it is the seller's text, rendered as text.
 */
import { Wrench } from 'lucide-react';
import type { PackageInside } from '~/lib/agent-package';

export function AgentInside({ inside, agentName }: { inside: PackageInside; agentName: string }) {
  const { tools, example } = inside;
  return (
    <section aria-labelledby="inside-title" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 id="inside-title" className="text-2xl font-bold">
          What&apos;s inside
        </h2>
        <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-700 dark:text-slate-300">
          <div className="flex gap-1">
            <dt>Model family:</dt>
            <dd className="font-medium text-slate-900 dark:text-slate-100">{inside.modelFamily}</dd>
          </div>
          <div className="flex gap-1">
            <dt>Package version:</dt>
            <dd className="font-medium text-slate-900 dark:text-slate-100">{inside.version}</dd>
          </div>
        </dl>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <div className="flex flex-col gap-3">
          <h3 className="text-lg font-semibold">{tools.length === 1 ? '1 tool' : `${tools.length} tools`}</h3>
          {tools.length ? (
            <ul className="flex flex-col gap-3">
              {tools.map((tool) => (
                <li key={tool.name} className="flex gap-3 rounded-xl border border-slate-200 p-3 dark:border-slate-700">
                  <Wrench aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-600 dark:text-slate-400" />
                  <div className="flex min-w-0 flex-col gap-1">
                    <code className="font-mono text-sm font-semibold break-all">{tool.name}</code>
                    <p className="text-sm text-slate-700 dark:text-slate-300">{tool.description}</p>
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              No tools: it works from the conversation alone.
            </p>
          )}
        </div>

        {example ? (
          <div className="flex flex-col gap-3">
            <h3 className="text-lg font-semibold">Example conversation</h3>
            <p className="text-sm text-slate-700 dark:text-slate-300">{example.title}</p>
            <ol className="flex flex-col gap-3" aria-label="Example conversation">
              {example.messages.map((message, index) => {
                const user = message.role === 'user';
                return (
                  <li
                    key={index}
                    className={`flex max-w-[90%] flex-col gap-1 rounded-2xl p-3 text-sm ${
                      user
                        ? 'self-end bg-brand-50 text-slate-900 dark:bg-brand-900 dark:text-slate-100'
                        : 'self-start border border-slate-200 text-slate-800 dark:border-slate-700 dark:text-slate-200'
                    }`}
                  >
                    <span className="text-xs font-semibold text-slate-700 dark:text-slate-300">
                      {user ? 'User' : agentName}
                    </span>
                    <p className="break-words whitespace-pre-line">{message.content}</p>
                  </li>
                );
              })}
            </ol>
          </div>
        ) : null}
      </div>
    </section>
  );
}
