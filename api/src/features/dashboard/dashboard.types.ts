import { Field, Float, Int, ObjectType } from 'type-graphql';
import { AudioFile } from '../files/audio-file.entity.js';

@ObjectType({ description: 'Figures for the administrator dashboard.' })
export class DashboardStats {
  @Field(() => Int)
  userCount!: number;

  @Field(() => Int)
  fileCount!: number;

  @Field(() => Int)
  publicFiles!: number;

  @Field(() => Int)
  privateFiles!: number;

  @Field(() => Float, { description: 'Seconds of audio across all files.' })
  totalDuration!: number;

  @Field(() => Float, { description: 'Bytes of audio across all files.' })
  totalSize!: number;

  @Field(() => [AudioFile], { description: 'The five newest files.' })
  recentUploads!: AudioFile[];
}
