import { ArgsType, Field, Int } from 'type-graphql';
import { z } from 'zod';
import { parseInput } from './validation.js';

@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 0, description: 'Rows to skip.' })
  offset!: number;

  @Field(() => Int, { defaultValue: 10, description: 'Rows to return, 1 to 100.' })
  limit!: number;
}

const pageSchema = z.object({
  offset: z.number().int().min(0, 'offset must be 0 or more').default(0),
  limit: z.number().int().min(1, 'limit must be between 1 and 100').max(100, 'limit must be between 1 and 100').default(10),
});

export interface Page {
  offset: number;
  limit: number;
}

export function parsePage(input: Partial<Page> | undefined): Page {
  return parseInput(pageSchema, input ?? {});
}
