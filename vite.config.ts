import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  resolve: { tsconfigPaths: true },
  // The server build's entry is our HTTP layer (server/app.ts), which imports the React Router
  // build through `virtual:react-router/server-build`; `server.js` loads it in production.
  environments: {
    // Fewer, larger scripts before the first paint on a slow connection (ADR 042): the icons the
    // pages use are one chunk instead of one file each (a page loaded 14 of them, 39 scripts in
    // all); React, React DOM and React Router are one (they were split by first importer); app
    // modules shared by a dozen routes or more are one. `/` loads 17 scripts instead of 25 for
    // about the same bytes.
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/ },
                {
                  name: 'framework',
                  test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|@react-router)[\\/]/,
                },
                { name: 'shared', test: /[\\/]app[\\/](components|lib|hooks)[\\/]/, minShareCount: 12 },
              ],
            },
          },
        },
      },
    },
    ssr: {
      // lucide-react's entry loads all of its ~1,600 icons (0.2 s of a start-up, ADR 044); bundled,
      // the server build keeps only the icons the pages use, as the browser's does. The embedded
      // backend's workspace package ships TypeScript, so it is bundled too. @supabase/ssr has no
      // `exports` map, so Node would load its CommonJS build, which requires supabase-js's CommonJS
      // build beside the ES module the app imports: two copies of supabase-js in one process (and
      // its Node 20 notice twice). Bundled, its ES module build imports the app's one copy.
      resolve: { noExternal: ['lucide-react', '@agentmarket/supabase-embedded', '@supabase/ssr'] },
      build: {
        rollupOptions: {
          input: './server/app.ts',
          // The sign-in form imports its zod schemas lazily to keep them out of the browser's first
          // load; the server bundle holds them anyway (the actions import them), where that lazy
          // import rightly splits nothing. Said once here instead of warned on every build.
          checks: { ineffectiveDynamicImport: false },
        },
      },
    },
  },
  plugins: [tailwindcss(), reactRouter()],
});
