import { defineConfig } from 'vitest/config';

// Unit tests of the web app's hooks and components: a simulated DOM (happy-dom), no server, no
// browser; the network is faked at fetch, XMLHttpRequest and Worker.
export default defineConfig({
  test: {
    root: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    restoreMocks: true,
    unstubGlobals: true,
  },
});
