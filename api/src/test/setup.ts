import 'reflect-metadata';
import { useTestHashCost } from '../features/auth/password-hash.js';

// Every sign-in of the API tier checks a password: argon2id at its least cost here (the app's
// own cost is checked by password-hash.test.ts, which sets it back). Run before each file.
useTestHashCost({ memoryCost: 1024, timeCost: 1 });
