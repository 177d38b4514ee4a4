/**
 * One row of a dashboard list (sales, users, agents and reviews under moderation): its details,
 * then its badges, figures and actions. The details keep at least 12rem, so on a phone the rest
 * wraps below them instead of squeezing a username into a column one word wide.
 */
export function ListRow({
  details,
  children,
  align = 'center',
}: {
  details: React.ReactNode;
  children?: React.ReactNode;
  align?: 'center' | 'start';
}) {
  return (
    <div className={`flex flex-wrap gap-x-6 gap-y-2 p-4 ${align === 'start' ? 'items-start' : 'items-center'}`}>
      <div className="min-w-0 flex-[1_1_12rem]">{details}</div>
      {children}
    </div>
  );
}
