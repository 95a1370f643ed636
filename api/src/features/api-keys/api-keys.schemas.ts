import { z } from 'zod';
import { idField } from '../../validation.js';
import { ApiKeyScope } from './api-key-scopes.js';

/** A new API key: REST POST /admin/api-keys and the createApiKey mutation. */
export const createApiKeySchema = z.object({
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(100, 'name must be at most 100 characters'),
  userId: idField('userId').meta({ description: 'The user the key acts for; it never does more than that user may.' }),
  scopes: z
    .array(z.enum(ApiKeyScope, { error: `scopes must be among ${Object.values(ApiKeyScope).join(', ')}` }), {
      error: 'scopes must be a list',
    })
    .min(1, 'Choose at least one scope')
    .transform((scopes) => [...new Set(scopes)]),
  expiresAt: z.coerce
    .date({ error: 'expiresAt must be a date' })
    .refine((d) => d.getTime() > Date.now(), 'expiresAt must be in the future')
    .nullish()
    .meta({ description: 'When the key stops working; absent or null: never.' }),
  rateLimitPerMinute: z
    .number({ error: 'rateLimitPerMinute must be a number' })
    .int('rateLimitPerMinute must be a whole number')
    .min(1, 'rateLimitPerMinute must be between 1 and 10000')
    .max(10_000, 'rateLimitPerMinute must be between 1 and 10000')
    .nullish()
    .meta({ description: 'Requests per minute; absent or null: the default (600).' }),
});
