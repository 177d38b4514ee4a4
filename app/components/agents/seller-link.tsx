import { Link } from 'react-router';
import { DELETED_ACCOUNT } from '~/lib/dashboard-format';
import { storefrontHref } from '~/lib/sellers';

/**
 * A seller's name linking to their storefront (`/sellers/{username}`) when the viewer may open
 * their profile (`linked`); plain text otherwise. No username: the seller deleted their account.
 */
export function SellerLink({
  username,
  name = username,
  linked = true,
  className = '',
}: {
  username: string | null;
  /** How the seller is named (sellerName); their username when not given. */
  name?: string | null;
  linked?: boolean;
  className?: string;
}) {
  if (!username) return <span className={className}>{DELETED_ACCOUNT}</span>;
  if (!linked) return <span className={className}>{name}</span>;
  return (
    <Link
      to={storefrontHref(username)}
      className={`underline-offset-2 hover:text-brand-700 hover:underline dark:hover:text-brand-300 ${className}`}
    >
      {name}
    </Link>
  );
}
