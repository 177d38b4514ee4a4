import { Lock } from 'lucide-react';
import type { ReactNode } from 'react';
import { meetsRequirement, type Requirement } from '~/lib/permissions';
import { useOptionalViewer } from '~/lib/use-viewer';

/**
 * Shows its children only when the viewer meets the requirement. Denied: the `fallback`, the
 * 'Access Restricted' panel (`showRestricted`), or nothing. It hides UI; it is never the check.
 */
export function Can({
  children,
  fallback,
  showRestricted = false,
  ...requirement
}: Requirement & { children: ReactNode; fallback?: ReactNode; showRestricted?: boolean }) {
  const viewer = useOptionalViewer();
  if (viewer && meetsRequirement(viewer.role, requirement as Requirement)) return <>{children}</>;
  if (fallback !== undefined) return <>{fallback}</>;
  if (showRestricted) return <AccessRestricted />;
  return null;
}

export function AccessRestricted() {
  return (
    <div role="note" className="flex items-center gap-3 rounded-xl border border-slate-200 p-4 dark:border-slate-700">
      <Lock aria-hidden="true" className="size-5 text-slate-600 dark:text-slate-400" />
      <div>
        <p className="font-semibold">Access Restricted</p>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          You don&apos;t have permission to view this content.
        </p>
      </div>
    </div>
  );
}
