/**
 * A person's picture, or the first letter of their name on the brand colour when they have none
 * (or the viewer may not see it). Decorative: the name is always written beside it. A picture is
 * an upload, stored as its Storage path: read from this site, or from hosted Supabase (the root
 * loader's `storageOrigin`).
 */
import { useStoredImage } from '~/lib/use-stored-image';

const SIZES = {
  xs: 'size-6 text-xs',
  sm: 'size-8 text-sm',
  md: 'size-10 text-base',
  lg: 'size-16 text-xl',
  xl: 'size-20 text-3xl',
} as const;

export function Avatar({
  name,
  url,
  size = 'sm',
}: {
  name: string;
  url: string | null | undefined;
  size?: keyof typeof SIZES;
}) {
  const dimensions = SIZES[size];
  const storedImage = useStoredImage();
  if (url) return <img src={storedImage(url)} alt="" className={`${dimensions} shrink-0 rounded-full object-cover`} />;
  // The letter is drawn by CSS, not written as text: beside the name it would join it in the
  // control's visible label ("ddemo_buyer"), which then no longer matches its accessible name
  // (WCAG 2.5.3, axe's label-content-name-mismatch).
  return (
    <span
      aria-hidden="true"
      data-initial={name.charAt(0) || '?'}
      className={`${dimensions} flex shrink-0 items-center justify-center rounded-full bg-brand-600 font-semibold text-white uppercase before:content-[attr(data-initial)]`}
    />
  );
}
