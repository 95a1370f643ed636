import 'reflect-metadata';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { templateStamp } from '../db/embedded-template-stamp.js';
import { useTestHashCost } from '../features/auth/password-hash.js';
// Every sign-in of the API tier checks a password: argon2id at its least cost here (the app's
// own cost is checked by password-hash.test.ts, which sets it back). Run before each file.
useTestHashCost({ memoryCost: 1024, timeCost: 1 });

/**
 * The embedded database's first start copies the build's template cluster when it was made from
 * these sources' migrations (`npm test` builds first), instead of making a cluster with initdb:
 * about 1 s against 20-30 s for every embedded database a test starts, a restore's included.
 */
const builtTemplate = fileURLToPath(new URL('../../dist/db/pgdata-template', import.meta.url));
const builtStamp = `${builtTemplate}.json`;
if (
  !process.env.EMBEDDED_TEMPLATE_DIR &&
  existsSync(builtStamp) &&
  readFileSync(builtStamp, 'utf8') === templateStamp()
) {
  process.env.EMBEDDED_TEMPLATE_DIR = builtTemplate;
}
