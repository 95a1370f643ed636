import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createPubSub } from '@graphql-yoga/subscription';
import { describe, expect, it } from 'vitest';
import type { AppPubSub } from '../event-bus.js';
import { createSchema } from '../compose/schema.js';
import { printSchemaSdl } from './schema.js';

describe('schema.graphql', () => {
  it('matches the schema the code builds (run `npm run codegen` after changing GraphQL types)', async () => {
    const committed = readFileSync(fileURLToPath(new URL('../../../schema.graphql', import.meta.url)), 'utf8');
    const built = printSchemaSdl(await createSchema(createPubSub() as AppPubSub));
    expect(built).toBe(committed);
  });
});
