import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '~/components/ui/button';
import { useHrefWith } from '~/lib/href-with';

/**
 * Previous / 'Page n of m' / Next links of a dashboard list, the page in the URL parameter
 * `pageName` (page 1 without it); `clear` names parameters a page change closes (an open form).
 */
export function Pager({
  label,
  page,
  pageCount,
  pageName = 'page',
  clear = [],
  previousLabel = 'Previous',
  nextLabel = 'Next',
}: {
  label: string;
  page: number;
  pageCount: number;
  pageName?: string;
  clear?: string[];
  previousLabel?: string;
  nextLabel?: string;
}) {
  const hrefWith = useHrefWith();
  if (pageCount <= 1) return null;
  const closed = Object.fromEntries(clear.map((name) => [name, null]));
  const pageHref = (target: number) => hrefWith({ ...closed, [pageName]: target > 1 ? String(target) : null });
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between gap-3">
      {page > 1 ? (
        <Link to={pageHref(page - 1)} className={buttonClass('secondary', 'sm')} rel="prev">
          <ChevronLeft aria-hidden="true" className="size-4" /> {previousLabel}
        </Link>
      ) : (
        <span />
      )}
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Page {page} of {pageCount}
      </p>
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
