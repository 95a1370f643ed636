import type { Feature } from '../feature.js';
import { accessFeature } from '../features/access/index.js';
import { apiKeysFeature } from '../features/api-keys/index.js';
import { auditFeature } from '../features/audit/index.js';
import { catalogFeature } from '../features/catalog/index.js';
import { backupFeature } from '../features/backup/index.js';
import { authFeature } from '../features/auth/index.js';
import { chaptersFeature } from '../features/chapters/index.js';
import { collectionsFeature } from '../features/collections/index.js';
import { checkpointsFeature } from '../features/checkpoints/index.js';
import { dashboardFeature } from '../features/dashboard/index.js';
import { filesFeature } from '../features/files/index.js';
import { jobsFeature } from '../features/jobs/index.js';
import { playbackFeature } from '../features/playback/index.js';
import { progressFeature } from '../features/progress/index.js';
import { ripDetectionFeature } from '../features/rip-detection/index.js';
import { statsFeature } from '../features/stats/index.js';
import { uploadsFeature } from '../features/uploads/index.js';
import { usersFeature } from '../features/users/index.js';

/**
 * Every feature of the app, the one list that names them all: the entities, the GraphQL schema,
 * the per-request loaders and AppDeps are made from it. A new feature is added here and nowhere
 * else. In this order their deps are made (a later one may replace an earlier one's: playback wraps
 * the event bus).
 */
export const features = [
  usersFeature,
  authFeature,
  auditFeature,
  jobsFeature,
  filesFeature,
  chaptersFeature,
  checkpointsFeature,
  accessFeature,
  catalogFeature,
  uploadsFeature,
  playbackFeature,
  progressFeature,
  statsFeature,
  collectionsFeature,
  apiKeysFeature,
  ripDetectionFeature,
  dashboardFeature,
  backupFeature,
] as const;

type Manifest = (typeof features)[number];
type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (all: infer I) => void ? I : never;
type DepsOf<F> = F extends Feature<infer Deps, infer _> ? Deps : never;
type LoadersOf<F> = F extends Feature<infer _, infer Made> ? Made : never;

/** AppDeps as the features make it: where it is assembled, a part no feature makes fails to compile. */
export type FeatureDeps = Intersection<DepsOf<Manifest>>;

/** The loaders as the features make them, checked against Loaders the same way. */
export type FeatureLoaders = Intersection<LoadersOf<Manifest>>;
