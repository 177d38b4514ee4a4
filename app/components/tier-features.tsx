import { Check } from 'lucide-react';
import type { Tier } from '~/lib/membership';

/** The checked feature list of a membership tier, as the pricing and membership pages show it. */
export function TierFeatures({ tier, className = '' }: { tier: Tier; className?: string }) {
  return (
    <ul className={`flex-1 space-y-2 text-sm ${className}`}>
      {tier.features.map((feature) => (
        <li key={feature} className="flex gap-2">
          <Check aria-hidden="true" className="size-4 shrink-0 text-green-700 dark:text-green-400" />
          {feature}
        </li>
      ))}
    </ul>
  );
}
