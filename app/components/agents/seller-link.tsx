import { Link } from 'react-router';
import { storefrontHref } from '~/lib/sellers';

/** A seller's name linking to their storefront (`/sellers/{username}`); plain text when unknown. */
export function SellerLink({ username, className = '' }: { username: string | null; className?: string }) {
  if (!username) return <span className={className}>Seller</span>;
  return (
    <Link
      to={storefrontHref(username)}
      className={`underline-offset-2 hover:text-brand-700 hover:underline dark:hover:text-brand-300 ${className}`}
    >
      {username}
    </Link>
  );
}
