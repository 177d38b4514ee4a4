import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

// `~` is the marketplace's app/ folder (bench/lib/b-default.js passes it): the same card
// component, stylesheet and fixture data as F, so only the app around them differs.
export default defineConfig({
  resolve: { alias: { '~': process.env.MARKETPLACE_APP_DIR ?? '../../app' } },
  plugins: [tailwindcss(), reactRouter()],
});
