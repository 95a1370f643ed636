import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Chapter } from './chapter.entity.js';

@InputType({ description: 'A chapter to add: times in seconds; a null end means up to the next chapter or the end.' })
export class ChapterInput {
  @Field({ description: 'The chapter name, not blank.' }) label!: string;
  @Field(() => Float, { description: 'Seconds from the start of the file.' }) startTime!: number;
  @Field(() => Float, {
    nullable: true,
    description: 'Seconds from the start; null means up to the next chapter or the end.',
  })
  endTime?: number | null;
  @Field(() => Int, { nullable: true, description: 'Position in the list; default: after the last.' }) order?:
    number | null;
}

@InputType({ description: 'Changes to a chapter; omitted fields stay. A finalized chapter keeps its times.' })
export class UpdateChapterInput {
  @Field({ nullable: true, description: 'The new name.' }) label?: string;
  @Field(() => Float, { nullable: true, description: 'The new start, in seconds from the start of the file.' })
  startTime?: number;
  @Field(() => Float, { nullable: true, description: 'Null means auto (the next start or the end of the file).' })
  endTime?: number | null;
}

@ObjectType({ description: "Counts of a file's chapters by status." })
export class ChapterSummary {
  @Field(() => Int, { description: 'Chapters waiting to be finalized.' }) pending!: number;
  @Field(() => Int, { description: 'Chapters finalized and playable.' }) ready!: number;
  @Field(() => Int, { description: 'Chapters whose finalizing failed.' }) failed!: number;
  @Field(() => Int, { description: 'All chapters of the file.' }) total!: number;
}

@ObjectType({ description: 'A chapter that could not be finalized.' })
export class FinalizeError {
  @Field(() => ID, { description: 'The chapter that failed.' }) chapterId!: string;
  @Field({ description: 'Its name.' }) label!: string;
  @Field({ description: 'Why this chapter failed; the others went on.' }) message!: string;
}

@ObjectType({ description: 'How a finalize run went, in counts.' })
export class FinalizeSummary {
  @Field(() => Int, { description: 'Chapters now ready.' }) finalized!: number;
  @Field(() => Int, { description: 'Chapters that failed.' }) failed!: number;
  @Field(() => Int, { description: 'Pending chapters that were attempted.' }) total!: number;
}

@ObjectType({ description: 'The outcome of finalizing: ready chapters, and failures with reasons.' })
export class FinalizeResult {
  @Field(() => [Chapter], { description: 'The chapters finalized by this run.' }) finalizedChapters!: Chapter[];
  @Field(() => [FinalizeError], { description: 'The chapters that failed, with why.' }) errors!: FinalizeError[];
  @Field(() => FinalizeSummary, { description: 'The counts of this run.' }) summary!: FinalizeSummary;
}

@ObjectType({ description: "A change to a file's chapters: added, edited, deleted, finalized or failed." })
export class ChapterEvent {
  @Field(() => ID, { description: 'The file whose chapters changed.' }) fileId!: string;
  @Field(() => ID, { nullable: true, description: 'Null when several chapters changed at once.' }) chapterId!:
    string | null;
  @Field(() => String, { nullable: true, description: 'The new status; null when the chapter was deleted.' })
  status!: string | null;
  @Field({ description: 'When it happened (ISO 8601).' }) at!: string;
}
