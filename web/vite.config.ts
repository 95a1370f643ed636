import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress';

// The API serves GraphQL (HTTP and WebSocket), REST and health on one port; in development the
// Vite server forwards to it so the app stays same-origin, as it is when the API serves dist/.
// API_ORIGIN points it elsewhere (a second API on another port, for instance).
const api = process.env.API_ORIGIN ?? 'http://127.0.0.1:4000';

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        // MUI is left to per-route splitting, so the sign-in page does not load the admin tables.
        codeSplitting: {
          groups: [
            { name: 'apollo', test: /node_modules[\\/](@apollo|graphql|graphql-ws|rxjs|@wry|optimism)/ },
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/graphql': { target: api, ws: true },
      '/api': { target: api },
      '/healthz': { target: api },
    },
  },
});
