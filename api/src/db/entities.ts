import { FileAccess } from '../features/access/file-access.entity.js';
import { ApiKey } from '../features/api-keys/api-key.entity.js';
import { AuditEntry } from '../features/audit/audit-entry.entity.js';
import { DeviceSession } from '../features/auth/device-session.entity.js';
import { ChapterKey } from '../features/chapters/chapter-key.entity.js';
import { ChapterSegment } from '../features/chapters/chapter-segment.entity.js';
import { Chapter } from '../features/chapters/chapter.entity.js';
import { Checkpoint } from '../features/checkpoints/checkpoint.entity.js';
import { AudioFile } from '../features/files/audio-file.entity.js';
import { Cover } from '../features/files/cover.entity.js';
import { ListeningProgress } from '../features/progress/listening-progress.entity.js';
import { StreamSession } from '../features/playback/stream-session.entity.js';
import { UploadSession } from '../features/uploads/upload-session.entity.js';
import { User } from '../features/users/user.entity.js';

/** Every entity, listed explicitly so discovery works the same under tsc, Node and Vitest. */
export const entities = [
  User,
  DeviceSession,
  AuditEntry,
  AudioFile,
  Cover,
  Chapter,
  ChapterKey,
  ChapterSegment,
  Checkpoint,
  FileAccess,
  UploadSession,
  StreamSession,
  ListeningProgress,
  ApiKey,
];
