import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { AudioFile } from '../files/audio-file.entity.js';
import type { FileSummary } from '../files/files.service.js';

@ObjectType({ description: 'Seconds listened in one day or one week (Monday to Sunday).' })
export class ListeningPeriod {
  @Field({ description: 'Its first day, YYYY-MM-DD, in the asked time zone.' })
  start!: string;

  @Field(() => Float, { description: 'Seconds of real listening (not seeking) in it.' })
  seconds!: number;
}

@ObjectType({ description: 'A book the caller played to its end, while they may still see it.' })
export class FinishedBook {
  @Field(() => AudioFile, { description: 'The book.' })
  file!: FileSummary;

  @Field({ description: 'When it was marked finished (its last progress save).' })
  finishedAt!: Date;
}

@ObjectType({
  description:
    "The caller's own listening: time per day and per week over every file they listened to, and the finished books they may still see.",
})
export class MyListeningStats {
  @Field({ description: 'The IANA time zone the days were cut in.' })
  timeZone!: string;

  @Field(() => [ListeningPeriod], { description: 'Oldest first, today last; days without listening count 0.' })
  days!: ListeningPeriod[];

  @Field(() => [ListeningPeriod], { description: 'Oldest first, this week last.' })
  weeks!: ListeningPeriod[];

  @Field(() => [FinishedBook], { description: 'Most recently finished first, at most 50.' })
  finished!: FinishedBook[];
}

@ObjectType({ description: 'A book with the listening it had in the period.' })
export class PlayedBook {
  @Field(() => AudioFile, { description: 'The book.' })
  file!: FileSummary;

  @Field(() => Float, { description: 'Seconds listened, all listeners together.' })
  seconds!: number;

  @Field(() => Int, { description: 'Users who listened to it.' })
  listeners!: number;
}

@ObjectType({ description: 'A user who listened in the period.' })
export class ActiveListener {
  @Field(() => ID, { description: 'The user.' })
  userId!: string;

  @Field({ description: 'Their name.' })
  name!: string;

  @Field({ description: 'Their email address.' })
  email!: string;

  @Field(() => Float, { description: 'Seconds listened.' })
  seconds!: number;

  @Field(() => Int, { description: 'Files listened to.' })
  files!: number;
}

@ObjectType({ description: 'Administrators: listening over a period, across every user.' })
export class ListeningOverview {
  @Field({ description: 'The start of the period (it ends now).' })
  since!: Date;

  @Field(() => Float, { description: 'Seconds listened in all.' })
  totalSeconds!: number;

  @Field(() => Int, { description: 'Users who listened.' })
  listenerCount!: number;

  @Field(() => [PlayedBook], { description: 'The most played books by listening time.' })
  byTime!: PlayedBook[];

  @Field(() => [PlayedBook], { description: 'The most played books by number of listeners.' })
  byListeners!: PlayedBook[];

  @Field(() => [ActiveListener], { description: 'The users who listened, most time first.' })
  activeListeners!: ActiveListener[];
}
