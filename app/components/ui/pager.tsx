import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '~/components/ui/button';
import { useHrefWith } from '~/lib/href-with';
import { pageWindow } from '~/lib/pagination';

/**
 * The links to the other pages of a list, for every paged list. Plain links (GET), so they work
 * without JavaScript.
 *
 * - `numbered` (the marketplace, storefronts, My Collection, Purchase History): 'Page n of m',
 *   then previous, page numbers around the current one, next.
 * - `steps` (the dashboard's lists, an agent's reviews): previous, 'Page n of m', next, with
 *   labels of the list's own ('Newer reviews' / 'Older reviews').
 *
 * Each page's link is `hrefFor(page)` when the list builds its own URLs (canonical ones); else the
 * current URL with `pageName` set (absent for page 1) and the `clear` parameters removed (an open
 * form), followed by `hash`.
 */
export function Pager({
  label,
  page,
  pageCount,
  variant = 'steps',
  hrefFor,
  pageName = 'page',
  clear = [],
  hash = '',
  previousLabel = 'Previous',
  nextLabel = 'Next',
}: {
  label: string;
  page: number;
  pageCount: number;
  variant?: 'numbered' | 'steps';
  hrefFor?: (page: number) => string;
  pageName?: string;
  clear?: string[];
  hash?: string;
  previousLabel?: string;
  nextLabel?: string;
}) {
  const hrefWith = useHrefWith();
  if (pageCount <= 1) return null;
  const closed = Object.fromEntries(clear.map((name) => [name, null]));
  const pageHref =
    hrefFor ?? ((target: number) => hrefWith({ ...closed, [pageName]: target > 1 ? String(target) : null }) + hash);
  const position = (
    <p className="text-sm text-slate-700 dark:text-slate-300">
      Page {page} of {pageCount}
    </p>
  );

  if (variant === 'steps') {
    return (
      <nav aria-label={label} className="mt-4 flex items-center justify-between gap-3">
        {page > 1 ? (
          <Link to={pageHref(page - 1)} className={buttonClass('secondary', 'sm')} rel="prev">
            <ChevronLeft aria-hidden="true" className="size-4" /> {previousLabel}
          </Link>
        ) : (
          <span />
        )}
        {position}
        {page < pageCount ? (
          <Link to={pageHref(page + 1)} className={buttonClass('secondary', 'sm')} rel="next">
            {nextLabel} <ChevronRight aria-hidden="true" className="size-4" />
          </Link>
        ) : (
          <span />
        )}
      </nav>
    );
  }

  const linkClass =
    'flex min-w-10 h-10 items-center justify-center rounded-lg px-2 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800';
  return (
    <nav aria-label={label} className="mt-10 flex flex-col items-center gap-3">
      {position}
      <div className="flex items-center justify-center gap-1">
        {page > 1 ? (
          <Link to={pageHref(page - 1)} className={linkClass} aria-label="Previous page" rel="prev">
            <ChevronLeft aria-hidden="true" className="size-4" />
          </Link>
        ) : null}
        {pageWindow(page, pageCount).map((target, index) =>
          target === null ? (
            <span key={`gap-${index}`} className="px-2 text-slate-600 dark:text-slate-400">
              …
            </span>
          ) : (
            <Link
              key={target}
              to={pageHref(target)}
              aria-label={`Page ${target}`}
              aria-current={target === page ? 'page' : undefined}
              className={`${linkClass} ${target === page ? 'bg-brand-600 text-white hover:bg-brand-700' : ''}`}
            >
              {target}
            </Link>
          ),
        )}
        {page < pageCount ? (
          <Link to={pageHref(page + 1)} className={linkClass} aria-label="Next page" rel="next">
            <ChevronRight aria-hidden="true" className="size-4" />
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
