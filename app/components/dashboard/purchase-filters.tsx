/** Purchase History's filters: a GET form whose every field is in the URL, and its pending state. */
import { Search } from 'lucide-react';
import { useRef, type FormEvent } from 'react';
import { Form, Link, useNavigation, useSubmit } from 'react-router';
import { useHydrated } from 'remix-utils/use-hydrated';
import { buttonClass } from '~/components/ui/button';
import type { Category } from '~/lib/categories';
import { PURCHASES_PATH, STATUS_FILTER_OPTIONS, type PurchaseHistoryParams } from '~/lib/purchase-history';

const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';
const FIELD =
  'h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100';

/** Whether a client-side navigation to this page is under way (filters applied, dialog opened). */
export function usePurchasesPending(): boolean {
  const navigation = useNavigation();
  return navigation.state !== 'idle' && navigation.location?.pathname === PURCHASES_PATH;
}

/**
 * The filters: one GET form, so a filtered history is a URL. Without JavaScript the Apply button
 * submits it; with JavaScript every change submits at once (typing after a short pause), empty
 * fields left out of the URL, and the button hides.
 */
export function PurchaseFilters({ params, categories }: { params: PurchaseHistoryParams; categories: Category[] }) {
  const isHydrated = useHydrated();
  const submit = useSubmit();
  const pending = usePurchasesPending();
  const typing = useRef<ReturnType<typeof setTimeout>>(undefined);

  function apply(form: HTMLFormElement) {
    clearTimeout(typing.current);
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(form)) {
      if (typeof value === 'string' && value.trim() !== '') query.append(key, value.trim());
    }
    void submit(query, { method: 'get', action: PURCHASES_PATH, replace: true, preventScrollReset: true });
  }

  function onChange(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    clearTimeout(typing.current);
    if ((event.target as HTMLElement).tagName === 'INPUT') {
      typing.current = setTimeout(() => apply(form), 400);
    } else {
      apply(form);
    }
  }

  return (
    <Form
      method="get"
      action={PURCHASES_PATH}
      role="search"
      aria-label="Filter purchases"
      onChange={onChange}
      onSubmit={(event) => {
        event.preventDefault();
        apply(event.currentTarget);
      }}
      className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4 lg:flex-row lg:items-end dark:border-slate-800"
    >
      <div className="relative flex-1">
        <label htmlFor="purchase-search" className="sr-only">
          Search purchases
        </label>
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
        />
        <input
          id="purchase-search"
          type="search"
          name="q"
          defaultValue={params.q ?? ''}
          key={params.q ?? ''}
          placeholder="Search purchases..."
          maxLength={100}
          className={`${FIELD} w-full pl-9 placeholder:text-slate-500 dark:placeholder:text-slate-400`}
        />
      </div>
      <FilterSelect
        id="purchase-status"
        name="status"
        label="Status"
        value={params.status}
        options={STATUS_FILTER_OPTIONS}
      />
      <FilterSelect
        id="purchase-category"
        name="category"
        label="Category"
        value={params.category}
        options={[
          { value: '', label: 'All Categories' },
          ...categories.map((category) => ({ value: category.slug, label: category.name })),
        ]}
      />
      <div className="flex items-center gap-3">
        {isHydrated ? null : (
          <button type="submit" className={buttonClass('primary', 'md', 'h-11')}>
            Apply
          </button>
        )}
        <Link to={PURCHASES_PATH} className={buttonClass('secondary', 'md', 'h-11')}>
          Clear Filters
        </Link>
        <span role="status" className={SECONDARY}>
          {pending ? 'Updating…' : ''}
        </span>
      </div>
    </Form>
  );
}

function FilterSelect({
  id,
  name,
  label,
  value,
  options,
}: {
  id: string;
  name: string;
  label: string;
  value: string | null;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ''} key={value ?? ''} className={FIELD}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
