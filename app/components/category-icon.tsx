import { BarChart3, Headset, LayoutGrid, Megaphone, PenTool, TrendingUp, Wallet, type LucideIcon } from 'lucide-react';
import type { Category } from '~/lib/categories';

/** The icon keys `public.categories.icon` may name; any other key gets the neutral grid. */
const ICONS: Record<string, LucideIcon> = {
  megaphone: Megaphone,
  chart: BarChart3,
  pen: PenTool,
  trending: TrendingUp,
  headset: Headset,
  wallet: Wallet,
};

/**
 * Light and dark tile colours per `public.categories.colour` key, each with AA contrast for its
 * text (whole class names, so Tailwind finds them); any other key gets the neutral slate.
 */
const COLOURS: Record<string, string> = {
  pink: 'bg-pink-100 text-pink-800 dark:bg-pink-950 dark:text-pink-200',
  blue: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200',
  purple: 'bg-purple-100 text-purple-800 dark:bg-purple-950 dark:text-purple-200',
  green: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200',
  orange: 'bg-orange-100 text-orange-800 dark:bg-orange-950 dark:text-orange-200',
  teal: 'bg-teal-100 text-teal-800 dark:bg-teal-950 dark:text-teal-200',
};
const NEUTRAL = 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200';

export function CategoryIcon({
  category,
  className = '',
}: {
  category: Pick<Category, 'icon' | 'colour'>;
  className?: string;
}) {
  const Icon = ICONS[category.icon] ?? LayoutGrid;
  return (
    <span
      className={`flex size-12 items-center justify-center rounded-xl ${COLOURS[category.colour] ?? NEUTRAL} ${className}`}
    >
      <Icon aria-hidden="true" className="size-6" />
    </span>
  );
}
