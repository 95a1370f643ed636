import { features } from './features.js';

/** Every entity, listed explicitly so discovery works the same under tsc, Node and Vitest. */
export const entities = features.flatMap((feature) => feature.entities ?? []);
