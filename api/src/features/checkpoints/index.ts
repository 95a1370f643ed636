import { defineFeature } from '../../feature.js';
import { Checkpoint } from './checkpoint.entity.js';
import { CheckpointResolver } from './checkpoints.resolver.js';

export const checkpointsFeature = defineFeature({
  name: 'checkpoints',
  entities: [Checkpoint],
  resolvers: [CheckpointResolver],
});
