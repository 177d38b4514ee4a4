import { SlidersHorizontal, Star } from 'lucide-react';
import { useEffect, useRef, type FormEvent } from 'react';
import { Form, useNavigate } from 'react-router';
import { useHydrated } from 'remix-utils/use-hydrated';
import { buttonClass } from '~/components/ui/button';
import type { Category } from '~/lib/categories';
import {
  MAX_PRICE,
  MIN_RATING_OPTIONS,
  defaultSort,
  formSearch,
  type MarketplaceParams,
} from '~/lib/marketplace-params';

export const FILTER_FORM_ID = 'marketplace-filters';

/**
 * The filter sidebar: one GET form (search box and sort select join it through the `form`
 * attribute). Without JavaScript an Apply button submits it; with JavaScript every change
 * submits at once and the button hides. On small screens a checkbox toggles it, no script needed.
 *
 * The controls stay mounted across filter changes, so a keyboard user keeps focus while arrow keys
 * walk a radio group (each step is a navigation); when the URL changes some other way (Back, a
 * link, the header's search) `showParams` puts the controls, the search box and the sort select
 * included, back in line with it.
 */
export function FilterSidebar({
  params,
  categories,
  categoryCounts,
  categoryTotal,
}: {
  params: MarketplaceParams;
  /** The categories table, in display order. */
  categories: Category[];
  /** Per category name. */
  categoryCounts: Record<string, number>;
  categoryTotal: number;
}) {
  const isHydrated = useHydrated();
  // No price filter: the slider stands at its top.
  const maxPrice = params.maxPrice ?? MAX_PRICE;
  const navigate = useNavigate();
  // Set while the slider holds a value the user chose and the URL does not say yet (sent 300 ms on).
  const priceTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const form = useRef<HTMLFormElement>(null);
  const shown = JSON.stringify({
    q: params.q ?? '',
    category: params.category ?? '',
    maxPrice: String(maxPrice),
    minRating: params.minRating === null ? '' : String(params.minRating),
    // The sort select's default order has the empty value (formSearch).
    sort: params.sort === defaultSort(params.q) ? '' : params.sort,
  });
  // Not on the first render: the server's markup already says it, and a choice made before
  // hydration must survive until React replays its change event.
  const shownBefore = useRef(shown);
  useEffect(() => {
    if (shownBefore.current === shown) return;
    shownBefore.current = shown;
    if (!form.current) return;
    const values = JSON.parse(shown) as Record<string, string>;
    // A navigation that ends while the slider's newer value waits to be sent must not move the
    // slider back: that value is the user's, and it is the one sent next.
    if (priceTimer.current !== undefined) delete values.maxPrice;
    showParams(form.current, values);
  }, [shown]);

  /** Goes straight to the canonical URL of the form's state (no redirect round trip). */
  function submitForm(form: HTMLFormElement) {
    // The form's data holds the slider's value too: a change of it waiting to be sent goes now.
    clearTimeout(priceTimer.current);
    priceTimer.current = undefined;
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(form)) if (typeof value === 'string') query.append(key, value);
    navigate(`/marketplace${formSearch(query)}`, { preventScrollReset: true });
  }

  function onChange(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    const target = event.target as HTMLInputElement;
    if (target.type === 'search') return; // sent with Enter, as the form's submit
    if (target.type === 'range') {
      clearTimeout(priceTimer.current);
      priceTimer.current = setTimeout(() => submitForm(form), 300);
    } else {
      submitForm(form);
    }
  }

  return (
    <div className="lg:w-64 lg:shrink-0">
      <input type="checkbox" id="filters-toggle" className="peer sr-only lg:hidden" aria-label="Show filters" />
      <label
        htmlFor="filters-toggle"
        className={`${buttonClass('secondary', 'md')} cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-focus lg:hidden`}
      >
        <SlidersHorizontal aria-hidden="true" className="size-4" /> Filters
      </label>
      <Form
        ref={form}
        id={FILTER_FORM_ID}
        method="get"
        action="/marketplace"
        onChange={onChange}
        onSubmit={(event) => {
          event.preventDefault();
          submitForm(event.currentTarget);
        }}
        aria-label="Filters"
        className="mt-4 hidden space-y-8 peer-checked:block lg:mt-0 lg:block"
      >
        <input type="hidden" name="view" value={params.view} disabled={params.view === 'grid'} />
        <fieldset>
          <legend className="text-sm font-semibold">Categories</legend>
          <div className="mt-3 space-y-1">
            <ChoiceRow name="category" value="" checked={params.category === null} label="All" count={categoryTotal} />
            {categories.map((category) => (
              <ChoiceRow
                key={category.name}
                name="category"
                value={category.slug}
                checked={params.category === category.slug}
                label={category.name}
                count={categoryCounts[category.name]}
              />
            ))}
          </div>
        </fieldset>

        <fieldset>
          <legend className="text-sm font-semibold">Price Range</legend>
          <label htmlFor="max-price" className="mt-3 flex justify-between text-sm text-slate-700 dark:text-slate-300">
            <span>Up to</span>
            <output htmlFor="max-price">${maxPrice}</output>
          </label>
          <input
            id="max-price"
            type="range"
            name="maxPrice"
            min={0}
            max={MAX_PRICE}
            step={1}
            defaultValue={maxPrice}
            onInput={(event) => {
              const output = event.currentTarget.form?.querySelector('output[for="max-price"]');
              if (output) output.textContent = `$${event.currentTarget.value}`;
            }}
            className="mt-2 w-full accent-brand-600"
            aria-valuetext={`Up to $${maxPrice}`}
          />
          <div className="flex justify-between text-xs text-slate-600 dark:text-slate-400">
            <span>$0</span>
            <span>${MAX_PRICE}</span>
          </div>
        </fieldset>

        <fieldset>
          <legend className="text-sm font-semibold">Minimum Rating</legend>
          <div className="mt-3 space-y-1">
            <ChoiceRow name="minRating" value="" checked={params.minRating === null} label="All Ratings" />
            {MIN_RATING_OPTIONS.map((rating) => (
              <ChoiceRow
                key={rating}
                name="minRating"
                value={String(rating)}
                checked={params.minRating === rating}
                label={`${rating}+ Stars`}
                icon={<Star aria-hidden="true" className="size-4 fill-amber-400 text-amber-500" />}
              />
            ))}
          </div>
        </fieldset>

        {/* The `hidden` attribute, not the class: the button's own `inline-flex` would win over it. */}
        <button type="submit" hidden={isHydrated} className={buttonClass('primary', 'md', 'w-full')}>
          Apply
        </button>
      </Form>
    </div>
  );
}

/** Sets every control of the filter form (by name) to `values`: what the URL says. */
function showParams(form: HTMLFormElement, values: Record<string, string>) {
  for (const control of form.elements) {
    if (!(control instanceof HTMLInputElement || control instanceof HTMLSelectElement)) continue;
    const value = values[control.name];
    if (value === undefined) continue;
    if (control instanceof HTMLInputElement && control.type === 'radio') control.checked = control.value === value;
    else if (control.value !== value) control.value = value;
  }
}

function ChoiceRow({
  name,
  value,
  checked,
  label,
  count,
  icon,
}: {
  name: string;
  value: string;
  checked: boolean;
  label: string;
  count?: number;
  icon?: React.ReactNode;
}) {
  return (
    <label className="flex min-h-9 cursor-pointer items-center justify-between gap-2 rounded-lg px-3 py-1.5 text-sm hover:bg-slate-100 has-checked:bg-brand-50 has-checked:font-semibold has-checked:text-brand-800 has-focus-visible:outline-2 has-focus-visible:outline-focus dark:hover:bg-slate-800 dark:has-checked:bg-slate-800 dark:has-checked:text-brand-200">
      <span className="flex items-center gap-2">
        <input type="radio" name={name} value={value} defaultChecked={checked} className="sr-only" />
        {icon}
        {label}
      </span>
      {count === undefined ? null : (
        <span className="rounded-full bg-slate-100 px-2 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-300">
          {count}
        </span>
      )}
    </label>
  );
}
