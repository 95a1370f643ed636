import { Field, Float, Int, ObjectType } from 'type-graphql';
import { AudioFile } from '../files/audio-file.entity.js';
import type { FileSummary } from '../files/files.service.js';

@ObjectType({ description: 'Figures for the administrator dashboard.' })
export class DashboardStats {
  @Field(() => Int, { description: 'Accounts, administrators included.' })
  userCount!: number;

  @Field(() => Int, { description: 'Audio files.' })
  fileCount!: number;

  @Field(() => Int, { description: 'Files visible to every signed-in user.' })
  publicFiles!: number;

  @Field(() => Int, { description: 'Files visible only through a grant.' })
  privateFiles!: number;

  @Field(() => Float, { description: 'Seconds of audio across all files.' })
  totalDuration!: number;

  @Field(() => Float, { description: 'Bytes of audio across all files.' })
  totalSize!: number;

  @Field(() => [AudioFile], { description: 'The five newest files.' })
  recentUploads!: FileSummary[];
}
