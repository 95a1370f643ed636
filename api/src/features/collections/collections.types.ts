import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({
  description:
    'A named, ordered collection of files curated by administrators. A user sees it only through the files they may see: its files and count list only those, and one with none is not shown.',
})
export class Collection {
  @Field(() => ID, { description: 'The collection id.' })
  id!: string;

  @Field({ description: 'Its name.' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'What it holds; null when not described.' })
  description!: string | null;

  @Field(() => Int, { description: 'How many of its files the caller may see.' })
  fileCount!: number;

  @Field({ description: 'When it was made.' })
  createdAt!: Date;

  @Field({ description: 'When it was last changed (renamed, described, or a file added, removed or moved).' })
  updatedAt!: Date;
}

@InputType({ description: 'A new collection.' })
export class CreateCollectionInput {
  @Field({ description: '1 to 200 characters.' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Up to 2000 characters; blank for none.' })
  description?: string | null;
}

@InputType({ description: 'A new name or description for a collection; what is left out stays as it is.' })
export class UpdateCollectionInput {
  @Field(() => String, { nullable: true, description: '1 to 200 characters.' })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'Up to 2000 characters; blank or null for none.' })
  description?: string | null;
}
