import { BarChart3, Headset, Megaphone, PenTool, TrendingUp, Wallet } from 'lucide-react';
import type { Category } from '~/lib/categories';

const ICONS = {
  megaphone: Megaphone,
  chart: BarChart3,
  pen: PenTool,
  trending: TrendingUp,
  headset: Headset,
  wallet: Wallet,
} as const;

/** Light and dark tile colours per category, each with AA contrast for its text. */
const COLOURS = {
  pink: 'bg-pink-100 text-pink-800 dark:bg-pink-950 dark:text-pink-200',
  blue: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200',
  purple: 'bg-purple-100 text-purple-800 dark:bg-purple-950 dark:text-purple-200',
  green: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200',
  orange: 'bg-orange-100 text-orange-800 dark:bg-orange-950 dark:text-orange-200',
  teal: 'bg-teal-100 text-teal-800 dark:bg-teal-950 dark:text-teal-200',
} as const;

export function CategoryIcon({ category, className = '' }: { category: Category; className?: string }) {
  const Icon = ICONS[category.icon];
  return (
    <span className={`flex size-12 items-center justify-center rounded-xl ${COLOURS[category.colour]} ${className}`}>
      <Icon aria-hidden="true" className="size-6" />
    </span>
  );
}
