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
  @Field(() => Int, { description: 'Chapters queued for finalizing or being encoded now.' }) finalizing!: number;
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

@ObjectType({ description: 'How a finalize request went, in counts.' })
export class FinalizeSummary {
  @Field(() => Int, { description: 'Chapters ready when the answer was sent: 0, as they are encoded after it.' })
  finalized!: number;
  @Field(() => Int, { description: 'Chapters failed when the answer was sent: 0; failures arrive as chapterEvents.' })
  failed!: number;
  @Field(() => Int, { description: 'Pending chapters this request queued.' }) total!: number;
}

@ObjectType({
  description:
    'The answer to a finalize request. Chapters are encoded in the background, one job each: they turn finalizing at once, then ready or failed (follow chapterEvents).',
})
export class FinalizeResult {
  @Field(() => [Chapter], { description: 'Chapters already finalized when the answer was sent: none.' })
  finalizedChapters!: Chapter[];
  @Field(() => [FinalizeError], { description: 'Chapters that failed before the answer was sent: none.' })
  errors!: FinalizeError[];
  @Field(() => FinalizeSummary, { description: 'The counts of this request.' }) summary!: FinalizeSummary;
  @Field(() => Int, { description: 'Pending chapters now queued for finalizing (status finalizing).' })
  queuedChapters!: number;
}

@ObjectType({
  description:
    "A change to a file's chapters: added, edited, deleted, queued, encoding (with progress), finalized or failed.",
})
export class ChapterEvent {
  @Field(() => ID, { description: 'The file whose chapters changed.' }) fileId!: string;
  @Field(() => ID, { nullable: true, description: 'Null when several chapters changed at once.' }) chapterId!:
    string | null;
  @Field(() => String, { nullable: true, description: 'The new status; null when the chapter was deleted.' })
  status!: string | null;
  @Field(() => Int, {
    nullable: true,
    description: 'While the chapter is being encoded: percent done, 0 to 100 (100 comes with status ready); else null.',
  })
  progress!: number | null;
  @Field({ description: 'When it happened (ISO 8601).' }) at!: string;
}
