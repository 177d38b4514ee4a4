import type { Config } from '@react-router/dev/config';

// The template's defaults: server rendering on, no future flags, no middleware.
export default { ssr: true } satisfies Config;
