import { STATUS_TONE, TONE_CLASS, statusLabel, type BillingStatus, type PurchaseStatus } from '~/lib/membership';

export function StatusBadge({ status }: { status: PurchaseStatus | BillingStatus }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${TONE_CLASS[STATUS_TONE[status]]}`}
    >
      {statusLabel(status)}
    </span>
  );
}

/** A small rounded label (role badge, 'Full Access', 'Current', 'Most Popular'); never wraps. */
export function Badge({ children, tone = 'brand' }: { children: React.ReactNode; tone?: 'brand' | 'amber' | 'slate' }) {
  const tones = {
    brand: 'bg-brand-100 text-brand-800 dark:bg-brand-900 dark:text-brand-100',
    amber: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
    slate: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200',
  };
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${tones[tone]}`}
    >
      {children}
    </span>
  );
}
