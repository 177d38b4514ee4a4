import { Link } from 'react-router';

/** A list of plain links, one an item: the footer's groups and the mobile menu. */
export function LinkList({
  links,
  className,
  linkClassName,
}: {
  links: readonly { to: string; label: string }[];
  className: string;
  linkClassName: string;
}) {
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.to}>
          <Link to={link.to} className={linkClassName}>
            {link.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
