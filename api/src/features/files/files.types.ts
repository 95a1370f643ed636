import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { connectionType } from '../../graphql/connection.js';
import { AudioFile } from './audio-file.entity.js';
import type { FileSummary } from './files.service.js';
import { LibrarySort } from './library-order.js';

export enum FileStatusFilter {
  ALL = 'ALL',
  PUBLIC = 'PUBLIC',
  PRIVATE = 'PRIVATE',
}
registerEnumType(FileStatusFilter, {
  name: 'FileStatusFilter',
  description: 'Which files an administrator list shows.',
  valuesConfig: {
    ALL: { description: 'Every file.' },
    PUBLIC: { description: 'Files visible to every signed-in user.' },
    PRIVATE: { description: 'Files visible only through a grant.' },
  },
});

registerEnumType(LibrarySort, {
  name: 'LibrarySort',
  description: 'The order of the library.',
  valuesConfig: {
    RECENTLY_ADDED: { description: 'Newest uploads first.' },
    TITLE: { description: 'By title, A to Z, ignoring case.' },
    DURATION: { description: 'Shortest first.' },
    RECENTLY_PLAYED: { description: 'The files you played most recently first; files never played last.' },
  },
});

export const AudioFileConnection = connectionType('AudioFile', () => AudioFile, 'audio file');

@ObjectType({ description: 'One page of audio files and how many match in all.' })
export class AudioFilePage {
  @Field(() => Int, { description: 'Files matching the query, across all pages.' })
  total!: number;

  @Field(() => [AudioFile], { description: 'The files of this page.' })
  items!: FileSummary[];
}

@ArgsType()
export class LibraryFilterArgs {
  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of the title or description.' })
  search?: string | null;

  @Field(() => LibrarySort, {
    defaultValue: LibrarySort.RECENTLY_ADDED,
    description: 'The order of the list; recently added first by default.',
  })
  sort!: LibrarySort;

  @Field(() => ID, { nullable: true, description: 'Only books this person wrote.' })
  authorId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only books this person reads.' })
  narratorId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only books of this series.' })
  seriesId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only books with this genre, as the genres list names it.' })
  genre?: string | null;
}

@ArgsType()
export class AdminFileFilterArgs {
  @Field(() => String, {
    nullable: true,
    description: 'Case-insensitive substring of the title, filename or description.',
  })
  search?: string | null;

  @Field(() => FileStatusFilter, {
    defaultValue: FileStatusFilter.ALL,
    description: 'Which files to list: all, public only or private only.',
  })
  status!: FileStatusFilter;
}

@InputType({
  description:
    'Changes to a file; omitted fields stay as they are. Covers are uploaded with PUT /api/v1/admin/files/{id}.',
})
export class UpdateFileInput {
  @Field(() => String, { nullable: true, description: 'The new title, 1 to 200 characters.' })
  title?: string | null;

  @Field(() => String, { nullable: true, description: 'An empty string clears the description.' })
  description?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'True makes the file visible to every signed-in user.' })
  isPublic?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'True removes the current cover image.' })
  removeCover?: boolean | null;
}
