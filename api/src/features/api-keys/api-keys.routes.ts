import { z } from 'zod';
import { component, dataBody, idParam, timestamp } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { ApiKeyScope, scopeDescription } from './api-key-scopes.js';
import { createApiKeySchema } from './api-keys.schemas.js';
import * as apiKeys from './api-keys.service.js';
import { ApiKeyStatus } from './api-keys.types.js';

const scopeList = Object.values(ApiKeyScope)
  .map((scope) => `\`${scope}\`: ${scopeDescription(scope)}`)
  .join(' ');

export const apiKeyViewSchema = component(
  'ApiKey',
  z
    .object({
      id: z.guid(),
      name: z.string(),
      prefix: z.string().meta({ description: 'The start of the key (pal_ and 8 characters), to tell keys apart.' }),
      scopes: z.array(z.enum(ApiKeyScope)).meta({ description: scopeList }),
      userId: z.guid().meta({ description: 'The user the key acts for.' }),
      userEmail: z.string(),
      status: z.enum(ApiKeyStatus),
      rateLimitPerMinute: z.int().min(1),
      createdAt: timestamp,
      expiresAt: timestamp.nullable().meta({ description: 'Null: never.' }),
      revokedAt: timestamp.nullable(),
      lastUsedAt: timestamp.nullable().meta({ description: 'To the minute.' }),
      lastUsedIp: z.string().nullable(),
    })
    .meta({ description: 'A service credential acting for one user within its scopes; never its secret.' }),
);

/** REST /api/v1/admin/api-keys: a person's signed-in device only, never a key. */
export const apiKeysRoutes = routes([
  {
    operationId: 'listApiKeys',
    method: 'get',
    path: '/admin/api-keys',
    tag: 'api-keys',
    summary: 'Every API key, newest first',
    caller: 'admin',
    answers: { 200: { description: 'The keys, never their secrets.', json: dataBody(z.array(apiKeyViewSchema)) } },
    scopes: 'deviceOnly',
    async handle({ ctx, res }) {
      sendData(res, await apiKeys.listApiKeys(ctx));
    },
  },
  {
    operationId: 'createApiKey',
    method: 'post',
    path: '/admin/api-keys',
    tag: 'api-keys',
    summary: 'Create an API key for a user',
    description:
      "Administrator scopes only for an administrator's key. Send the secret as `Authorization: Bearer pal_...`; it is shown this once.",
    caller: 'admin',
    body: { required: true, json: createApiKeySchema },
    answers: {
      201: {
        description: 'The key, and its secret beside it.',
        json: dataBody(apiKeyViewSchema, { secret: z.string(), message: z.string() }),
      },
    },
    scopes: 'deviceOnly',
    async handle({ ctx, body, res }) {
      const created = await apiKeys.createApiKey(ctx, body ?? {});
      sendData(
        res,
        created.apiKey,
        { secret: created.secret, message: 'API key created: copy its secret now, it is not shown again' },
        201,
      );
    },
  },
  {
    operationId: 'revokeApiKey',
    method: 'delete',
    path: '/admin/api-keys/:id',
    tag: 'api-keys',
    summary: 'Revoke an API key',
    description: 'Refused from its next request on; its open subscriptions are closed.',
    caller: 'admin',
    params: z.object({ id: idParam('The key id.') }),
    answers: {
      200: { description: 'The revoked key.', json: dataBody(apiKeyViewSchema, { message: z.string() }) },
    },
    scopes: 'deviceOnly',
    async handle({ ctx, params, res }) {
      sendData(res, await apiKeys.revokeApiKey(ctx, params.id), { message: 'API key revoked' });
    },
  },
]);
