/**
 * Per-request batch loaders for computed fields, so lists cost a fixed number of queries. Each
 * feature adds its own by declaration merging, next to the code that makes them; the composition
 * root makes them for each request from the features' manifests (compose/loaders.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the features
export interface Loaders {}
