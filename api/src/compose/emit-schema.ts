/** Writes schema.graphql at the repository root from the TypeGraphQL classes. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createPubSub } from '@graphql-yoga/subscription';
import type { AppPubSub } from '../event-bus.js';
import { printSchemaSdl } from '../graphql/schema.js';
import { createSchema } from './schema.js';

const target = fileURLToPath(new URL('../../../schema.graphql', import.meta.url));
const schema = await createSchema(createPubSub() as AppPubSub);
writeFileSync(target, printSchemaSdl(schema));
console.log(`wrote ${target}`);
