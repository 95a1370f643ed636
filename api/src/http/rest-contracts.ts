import { accessContract } from '../features/access/access.contract.js';
import { apiKeysContract } from '../features/api-keys/api-keys.contract.js';
import { authContract } from '../features/auth/auth.contract.js';
import { chapterContract } from '../features/chapters/chapter.contract.js';
import { checkpointsContract } from '../features/checkpoints/checkpoints.contract.js';
import { dashboardContract } from '../features/dashboard/dashboard.contract.js';
import { filesContract } from '../features/files/files.contract.js';
import { progressContract } from '../features/progress/progress.contract.js';
import { streamContract } from '../features/streaming/stream.contract.js';
import { uploadsContract } from '../features/uploads/uploads.contract.js';
import { usersContract } from '../features/users/users.contract.js';
import type { RouteContract } from './contract.js';
import { openApiContract } from './openapi.contract.js';

/** Every REST /api/v1 route's contract, in the document's order; a test checks it against the router. */
export const restContracts: RouteContract[] = [
  ...authContract,
  ...filesContract,
  ...chapterContract,
  ...streamContract,
  ...checkpointsContract,
  ...progressContract,
  ...uploadsContract,
  ...dashboardContract,
  ...usersContract,
  ...accessContract,
  ...apiKeysContract,
  ...openApiContract,
];
