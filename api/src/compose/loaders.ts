import type { EntityManager } from '@mikro-orm/postgresql';
import type { Loaders } from '../graphql/loaders.js';
import { features, type FeatureLoaders } from './features.js';

/** A request's batch loaders, every feature's. */
export function createLoaders(em: EntityManager): Loaders {
  const loaders: FeatureLoaders = Object.assign({}, ...features.map((feature) => feature.loaders?.(em)));
  return loaders;
}
