import { Field, Float, ID, InputType } from 'type-graphql';

@InputType({ description: 'A new checkpoint in a file the caller may see.' })
export class CreateCheckpointInput {
  @Field(() => ID, { description: 'The file to bookmark.' })
  fileId!: string;

  @Field(() => Float, { description: 'Seconds from the start; rounded to a whole second and clamped to the duration.' })
  timestamp!: number;

  @Field({ description: 'Not blank.' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Optional notes.' })
  description?: string | null;
}
