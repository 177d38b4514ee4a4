/**
 * The agent's images: the first large, the others below it. Plain images with their size set,
 * so nothing shifts while they load; all visible without JavaScript. Without images, `fallback`
 * (the agent's picture: its thumbnail or generated artwork).
 */
import { useStoredImage } from '~/lib/use-stored-image';

const SCREENSHOTS_PER_ROW = 3;

export function AgentGallery({
  name,
  images,
  fallback,
}: {
  name: string;
  images: readonly string[];
  fallback: string;
}) {
  const storedImage = useStoredImage();
  const [first, ...rest] = (images.length ? images : [fallback]).map(storedImage);
  return (
    <div className="flex flex-col gap-3">
      <img
        src={first}
        alt={`${name} screenshot 1`}
        width={800}
        height={600}
        fetchPriority="high"
        className="aspect-[4/3] w-full rounded-2xl border border-slate-200 object-cover dark:border-slate-700"
      />
      {rest.length ? (
        <ul className="grid grid-cols-3 gap-3" aria-label="More screenshots">
          {rest.map((src, index) => (
            <li key={src}>
              <img
                src={src}
                alt={`${name} screenshot ${index + 2}`}
                width={400}
                height={300}
                // The first row sits right under the main image, in the first screen on a desktop
                // (there one of them is the page's largest paint: the main picture can be too
                // simple an image for Chromium to count); the rows after it load when near.
                loading={index < SCREENSHOTS_PER_ROW ? 'eager' : 'lazy'}
                className="aspect-[4/3] w-full rounded-lg border border-slate-200 object-cover dark:border-slate-700"
              />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
