import { defineFeature } from '../../feature.js';
import { Checkpoint } from './checkpoint.entity.js';
import { CheckpointResolver } from './checkpoints.resolver.js';
import { checkpointsRoutes } from './checkpoints.routes.js';

export const checkpointsFeature = defineFeature({
  name: 'checkpoints',
  entities: [Checkpoint],
  resolvers: [CheckpointResolver],
  routes: checkpointsRoutes,
});
