// `npm start`: builds what changed since the last build (scripts/build.mjs), then runs the server
// in this process, so that Ctrl-C and a SIGTERM reach it as they would `node api/dist/main.js`.
import { build } from './build.mjs';

await build();
await import('../api/dist/main.js');
