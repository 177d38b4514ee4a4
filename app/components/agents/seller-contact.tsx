import { Globe, Mail, Phone } from 'lucide-react';

const LINK =
  'inline-flex items-center gap-1.5 font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300';

/**
 * How to reach a seller: the email and phone they chose to show (public_profiles leaves them
 * null otherwise) and their website. Nothing when there is nothing to show.
 */
export function SellerContactLinks({
  email,
  phone,
  website = null,
  label,
  className = '',
}: {
  email: string | null;
  phone: string | null;
  website?: string | null;
  /** The list's accessible name. */
  label: string;
  className?: string;
}) {
  if (!email && !phone && !website) return null;
  return (
    <ul aria-label={label} className={`flex flex-wrap gap-x-6 gap-y-2 text-sm ${className}`}>
      {email ? (
        <li>
          <a href={`mailto:${email}`} className={LINK}>
            <Mail aria-hidden="true" className="size-4" />
            {email}
          </a>
        </li>
      ) : null}
      {phone ? (
        <li>
          <a href={`tel:${phone.replace(/[^\d+]/g, '')}`} className={LINK}>
            <Phone aria-hidden="true" className="size-4" />
            {phone}
          </a>
        </li>
      ) : null}
      {website ? (
        <li>
          <a href={website} target="_blank" rel="noopener noreferrer" className={LINK}>
            <Globe aria-hidden="true" className="size-4" />
            Visit Website<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
      ) : null}
    </ul>
  );
}
