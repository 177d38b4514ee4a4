/**
 * The Storage buckets the migrations create, by the names the app reads and writes them with.
 */

/** Private: each agent version's package file (`<seller_id>/<agent_id>/<version>/<file name>`). */
export const PACKAGES_BUCKET = 'agent-packages';

/** Public: agents' pictures and screenshots. */
export const IMAGES_BUCKET = 'agent-images';

/** Public: profile pictures, each user's in their own folder. */
export const AVATARS_BUCKET = 'avatars';
