import type { NonEmptyArray } from 'type-graphql';
import { AuditResolver } from '../features/audit/audit.resolver.js';
import { AuthResolver, DeviceSessionResolver, UserFieldsResolver } from '../features/auth/auth.resolver.js';
import { UserSessionsResolver } from '../features/users/user-sessions.resolver.js';
import { AccessResolver, AudioFileAccessResolver, FileAccessDataResolver } from '../features/access/access.resolver.js';
import { CheckpointResolver } from '../features/checkpoints/checkpoints.resolver.js';
import { DashboardResolver } from '../features/dashboard/dashboard.resolver.js';
import { AdminFilesResolver, AudioFileFieldsResolver, LibraryResolver } from '../features/files/files.resolver.js';
import { UsersResolver } from '../features/users/users.resolver.js';
import { UploadsResolver } from '../features/uploads/uploads.resolver.js';
import { StreamResolver } from '../features/playback/stream.resolver.js';
import { ChapterResolver } from '../features/chapters/chapter.resolver.js';
import { AudioFileProgressResolver, ProgressResolver } from '../features/progress/progress.resolver.js';
import { ApiKeysResolver } from '../features/api-keys/api-keys.resolver.js';
import {
  DashboardRipAlertsResolver,
  RipAlertSubscriptionResolver,
  UserRipFlagResolver,
} from '../features/rip-detection/rip-alerts.resolver.js';

/** Every resolver of the schema; a feature adds its own here. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: NonEmptyArray<Function> = [
  AuthResolver,
  DeviceSessionResolver,
  UserFieldsResolver,
  UserSessionsResolver,
  AuditResolver,
  LibraryResolver,
  AdminFilesResolver,
  AudioFileFieldsResolver,
  AudioFileAccessResolver,
  AccessResolver,
  FileAccessDataResolver,
  CheckpointResolver,
  UsersResolver,
  DashboardResolver,
  UploadsResolver,
  StreamResolver,
  ChapterResolver,
  ProgressResolver,
  AudioFileProgressResolver,
  ApiKeysResolver,
  DashboardRipAlertsResolver,
  UserRipFlagResolver,
  RipAlertSubscriptionResolver,
];
