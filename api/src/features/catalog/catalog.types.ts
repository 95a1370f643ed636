import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { AudioFile } from '../files/audio-file.entity.js';
import type { FileSummary } from '../files/files.service.js';
import type { NamedRecord } from './catalog-loaders.js';
import { Person } from './person.entity.js';
import { Series } from './series.entity.js';

@ObjectType({ description: "A book's place in a series." })
export class SeriesPlace {
  @Field(() => Series, { description: 'The series.' })
  series!: NamedRecord;

  @Field(() => String, { nullable: true, description: 'Its position as written ("1", "2.5"); null when unknown.' })
  position!: string | null;
}

@ObjectType({ description: 'A person and how many of the books you may see credit them in the role listed.' })
export class CreditedPerson {
  @Field(() => ID, { description: 'The person id.' })
  id!: string;

  @Field({ description: 'Their name.' })
  name!: string;

  @Field(() => Int, { description: 'Books you may see that credit them in this role.' })
  bookCount!: number;
}

@ObjectType({ description: 'One page of people, A to Z, and how many match in all.' })
export class PersonPage {
  @Field(() => Int, { description: 'People matching, across all pages.' })
  total!: number;

  @Field(() => [CreditedPerson], { description: 'The people of this page.' })
  items!: CreditedPerson[];
}

@ObjectType({ description: 'A series and how many of its books you may see.' })
export class SeriesEntry {
  @Field(() => ID, { description: 'The series id.' })
  id!: string;

  @Field({ description: 'Its name.' })
  name!: string;

  @Field(() => Int, { description: 'Books of the series you may see.' })
  bookCount!: number;
}

@ObjectType({ description: 'One page of series, A to Z, and how many match in all.' })
export class SeriesPage {
  @Field(() => Int, { description: 'Series matching, across all pages.' })
  total!: number;

  @Field(() => [SeriesEntry], { description: 'The series of this page.' })
  items!: SeriesEntry[];
}

@ObjectType({ description: 'A genre and how many of the books you may see have it.' })
export class GenreCount {
  @Field({ description: 'The genre as the books name it.' })
  name!: string;

  @Field(() => Int, { description: 'Books you may see with this genre.' })
  bookCount!: number;
}

@ObjectType({ description: 'A person with the books you may see that they wrote and that they read.' })
export class PersonBooks {
  @Field(() => Person, { description: 'The person.' })
  person!: NamedRecord;

  @Field(() => [AudioFile], { description: 'Books they wrote, A to Z.' })
  authored!: FileSummary[];

  @Field(() => [AudioFile], { description: 'Books they narrate, A to Z.' })
  narrated!: FileSummary[];
}

@ObjectType({ description: 'A book of a series.' })
export class SeriesBook {
  @Field(() => String, { nullable: true, description: 'Its position as written; null when unknown.' })
  position!: string | null;

  @Field(() => AudioFile, { description: 'The book.' })
  file!: FileSummary;
}

@ObjectType({ description: 'A series with the books of it you may see, in series order.' })
export class SeriesBooks {
  @Field(() => Series, { description: 'The series.' })
  series!: NamedRecord;

  @Field(() => [SeriesBook], { description: 'Numbered positions in order, then the rest by title.' })
  books!: SeriesBook[];
}

@ArgsType()
export class CatalogSearchArgs {
  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of the name.' })
  search?: string | null;
}

@InputType({
  description:
    "A book's details. On upload, a value given wins over the file's tag and a blank one takes the tag; when editing, an omitted field stays as it is and a blank one or an empty list clears it.",
})
export class BookDetailsInput {
  @Field(() => String, { nullable: true, description: 'The subtitle, up to 200 characters.' })
  subtitle?: string | null;

  @Field(() => [String], { nullable: true, description: 'Authors in credit order.' })
  authors?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Narrators in credit order.' })
  narrators?: string[] | null;

  @Field(() => String, { nullable: true, description: 'The name of the series.' })
  series?: string | null;

  @Field(() => String, { nullable: true, description: 'The position in the series as written ("1", "2.5").' })
  seriesPosition?: string | null;

  @Field(() => Int, { nullable: true, description: 'The year of publication.' })
  year?: number | null;

  @Field(() => String, { nullable: true, description: 'The publisher.' })
  publisher?: string | null;

  @Field(() => [String], { nullable: true, description: 'Genres.' })
  genres?: string[] | null;

  @Field(() => String, { nullable: true, description: 'The language, as written (for example "English" or "en").' })
  language?: string | null;
}
