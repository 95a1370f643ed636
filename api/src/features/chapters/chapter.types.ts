import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Chapter } from './chapter.entity.js';

@InputType({ description: 'A chapter to add: times in seconds; a null end means up to the next chapter or the end.' })
export class ChapterInput {
  @Field() label!: string;
  @Field(() => Float) startTime!: number;
  @Field(() => Float, { nullable: true }) endTime?: number | null;
  @Field(() => Int, { nullable: true, description: 'Position in the list; default: after the last.' }) order?:
    number | null;
}

@InputType({ description: 'Changes to a chapter; omitted fields stay. A finalized chapter keeps its times.' })
export class UpdateChapterInput {
  @Field({ nullable: true }) label?: string;
  @Field(() => Float, { nullable: true }) startTime?: number;
  @Field(() => Float, { nullable: true, description: 'Null means auto (the next start or the end of the file).' })
  endTime?: number | null;
}

@ObjectType({ description: "Counts of a file's chapters by status." })
export class ChapterSummary {
  @Field(() => Int) pending!: number;
  @Field(() => Int) ready!: number;
  @Field(() => Int) failed!: number;
  @Field(() => Int) total!: number;
}

@ObjectType()
export class FinalizeError {
  @Field(() => ID) chapterId!: string;
  @Field() label!: string;
  @Field({ description: 'Why this chapter failed; the others went on.' }) message!: string;
}

@ObjectType()
export class FinalizeSummary {
  @Field(() => Int) finalized!: number;
  @Field(() => Int) failed!: number;
  @Field(() => Int, { description: 'Pending chapters that were attempted.' }) total!: number;
}

@ObjectType({ description: 'The outcome of finalizing: ready chapters, and failures with reasons.' })
export class FinalizeResult {
  @Field(() => [Chapter]) finalizedChapters!: Chapter[];
  @Field(() => [FinalizeError]) errors!: FinalizeError[];
  @Field(() => FinalizeSummary) summary!: FinalizeSummary;
}

@ObjectType({ description: 'A signed HLS playlist URL for one ready chapter.' })
export class ChapterStreamUrl {
  @Field({ description: 'Path relative to the server; the key it names needs this session signed in.' })
  streamUrl!: string;
  @Field() expiresAt!: Date;
}

@ObjectType({ description: "A change to a file's chapters: added, edited, deleted, finalized or failed." })
export class ChapterEvent {
  @Field(() => ID) fileId!: string;
  @Field(() => ID, { nullable: true, description: 'Null when several chapters changed at once.' }) chapterId!:
    string | null;
  @Field(() => String, { nullable: true, description: 'The new status; null when the chapter was deleted.' })
  status!: string | null;
  @Field() at!: string;
}
