import { Field, Float, ID, InputType, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Where the caller stopped in a file: their own position, kept across devices.' })
export class ListeningProgress {
  @Field(() => ID, { description: 'The file.' })
  fileId!: string;

  @Field(() => Float, { description: "Seconds from the start, within the file's duration." })
  position!: number;

  @Field({ description: 'True once played to the end (or to within a few seconds of it).' })
  finished!: boolean;

  @Field(() => Date, { nullable: true, description: 'When it became finished; null while it is not finished.' })
  finishedAt!: Date | null;

  @Field({ description: 'When it was last saved.' })
  updatedAt!: Date;
}

@InputType({ description: 'A listening position to store for a file the caller may see.' })
export class SaveProgressInput {
  @Field(() => Float, { description: "Seconds from the start; clamped to the file's duration." })
  position!: number;

  @Field(() => Boolean, { nullable: true, description: 'True when playback reached the end.' })
  finished?: boolean | null;
}
