import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { earlyRequest } from './build/early-request';
import { pagePreload } from './build/page-preload';
import { precompress } from './build/precompress';
import { DEVICE_ID_KEY } from './src/app/device';
import { SESSION_KEYS } from './src/app/stored-session';
import { LIBRARY_FIRST_PAGE, RECENTLY_ADDED } from './src/features/library/library-lists';
import {
  AudioFilesDocument,
  CollectionShelvesDocument,
  ContinueListeningDocument,
  FinishedBooksDocument,
  LibraryFilterChoicesDocument,
  MeDocument,
  WantToListenDocument,
} from './src/gql/graphql';

// The API serves GraphQL (HTTP and WebSocket), REST and health on one port; in development the
// Vite server forwards to it so the app stays same-origin, as it is when the API serves dist/.
// API_ORIGIN points it elsewhere (a second API on another port, for instance).
const api = process.env.API_ORIGIN ?? 'http://127.0.0.1:4000';

export default defineConfig({
  plugins: [
    react(),
    // The pages are the router's. The early requests are the session check's `me` (AuthProvider)
    // and, on the library, every list its first screen asks for (the grid's first page, each
    // shelf's, the filters' choices), with the "Recently added" shelf's first cover.
    pagePreload({
      sessionKey: SESSION_KEYS.token,
      deviceKey: DEVICE_ID_KEY,
      layout: 'src/app/SignedInLayout.tsx',
      pages: {
        '/': 'src/features/library/pages/LibraryPage.tsx',
        '/player/': 'src/features/player/pages/PlayerPage.tsx',
      },
      early: {
        '/': [
          earlyRequest(MeDocument, {}, { plain: true }),
          earlyRequest(AudioFilesDocument, LIBRARY_FIRST_PAGE),
          earlyRequest(ContinueListeningDocument, {}),
          earlyRequest(AudioFilesDocument, RECENTLY_ADDED, { cover: ['audioFiles', 'items', 0, 'coverThumbnailUrl'] }),
          earlyRequest(WantToListenDocument, {}),
          earlyRequest(FinishedBooksDocument, {}),
          earlyRequest(CollectionShelvesDocument, {}),
          earlyRequest(LibraryFilterChoicesDocument, {}),
        ],
        '/player/': [earlyRequest(MeDocument, {}, { plain: true })],
      },
    }),
    precompress(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        // MUI is left to per-route splitting, so the sign-in page does not load the admin tables.
        codeSplitting: {
          // A group takes its members' dependencies along unless a group of higher priority claims
          // them: React and graphql-js's language modules first, or the Apollo chunk (which imports
          // both) would hold them, and every page, the sign-in page too, would load Apollo to get them.
          groups: [
            { name: 'react', priority: 2, test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            // The printer and what Apollo uses of graphql-js, on their own: the sign-in page needs the
            // printer, not Apollo. Schemas and validation, which only the explorer uses, stay with it.
            { name: 'graphql-js', priority: 3, test: /node_modules[\\/]graphql[\\/](language|error|jsutils)[\\/]/ },
            { name: 'apollo', priority: 1, test: /node_modules[\\/](@apollo|graphql-ws|rxjs|@wry|optimism)/ },
            // The rest of the libraries the first page needs (MUI, emotion) in one request rather than
            // two dozen small shared chunks; what only later pages use stays with them.
            { name: 'ui', tags: ['$initial'], test: /node_modules/ },
            // Our own code in as few requests: what every page runs first in one chunk (it was the entry
            // and nine small shared chunks), and the modules the signed-in pages share in another
            // (eleven). On a phone's connection each extra request queued behind the six connections
            // costs a round trip; merged, the player's largest paint came 0.4 s sooner (Lighthouse).
            // Administrators' shared modules stay apart, so a listener's page does not load them.
            { name: 'app', tags: ['$initial'], test: /[\\/]web[\\/]src[\\/]/ },
            {
              name: 'signed-in',
              minShareCount: 2,
              test: /[\\/]web[\\/]src[\\/](app|components|features[\\/](auth|library|player))[\\/]/,
            },
            // MUI components and icons of the later pages in one more, so that opening the library or the
            // player does not queue some thirty small requests behind the browser's six connections.
            // Those only administrators' pages use (the grant form's autocomplete, the tables' paging,
            // the storage choice's radios) stay with those pages.
            {
              name: 'ui-more',
              test: /node_modules[\\/](@mui|@emotion|@popperjs|react-transition-group|clsx)[\\/](?!material[\\/]esm[\\/](Autocomplete|useAutocomplete|TablePagination|TablePaginationActions|Radio|RadioGroup|Switch)[\\/])/,
            },
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
