import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { pageCount, pageWindow } from '~/lib/marketplace-params';

/**
 * Page links for `total` results of PAGE_SIZE (24): the marketplace, a seller's storefront, My
 * Collection and Purchase History. Plain links (GET `?page=N`), so they work without JavaScript.
 */
export function Pagination({
  page: current,
  total,
  hrefFor,
}: {
  page: number;
  total: number;
  hrefFor: (page: number) => string;
}) {
  const pages = pageCount(total);
  if (pages <= 1) return null;
  const linkClass =
    'flex min-w-10 h-10 items-center justify-center rounded-lg px-2 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800';
  return (
    <nav aria-label="Pagination" className="mt-10 flex flex-col items-center gap-3">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Page {current} of {pages}
      </p>
      <div className="flex items-center justify-center gap-1">
        {current > 1 ? (
          <Link to={hrefFor(current - 1)} className={linkClass} aria-label="Previous page">
            <ChevronLeft aria-hidden="true" className="size-4" />
          </Link>
        ) : null}
        {pageWindow(current, pages).map((page, index) =>
          page === null ? (
            <span key={`gap-${index}`} className="px-2 text-slate-600 dark:text-slate-400">
              …
            </span>
          ) : (
            <Link
              key={page}
              to={hrefFor(page)}
              aria-label={`Page ${page}`}
              aria-current={page === current ? 'page' : undefined}
              className={`${linkClass} ${page === current ? 'bg-brand-600 text-white hover:bg-brand-700' : ''}`}
            >
              {page}
            </Link>
          ),
        )}
        {current < pages ? (
          <Link to={hrefFor(current + 1)} className={linkClass} aria-label="Next page">
            <ChevronRight aria-hidden="true" className="size-4" />
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
