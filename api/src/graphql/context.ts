import type { Ctx } from '../context.js';
import type { Loaders } from './loaders.js';

/** The GraphQL context: the service context plus per-request loaders. */
export interface GqlContext extends Ctx {
  loaders: Loaders;
}
