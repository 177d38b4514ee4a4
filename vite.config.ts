import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  resolve: { tsconfigPaths: true },
  // The server build's entry is our HTTP layer (server/app.ts), which imports the React Router
  // build through `virtual:react-router/server-build`; `server.js` loads it in production.
  environments: {
    ssr: { build: { rollupOptions: { input: './server/app.ts' } } },
  },
  plugins: [tailwindcss(), reactRouter()],
});
