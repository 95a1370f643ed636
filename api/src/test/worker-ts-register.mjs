// Preloaded into every test process (api/vitest.config.ts execArgv); worker threads inherit it.
import { register } from 'node:module';

register('./worker-ts-hooks.mjs', import.meta.url);
