import { z } from 'zod';
import { component, dataBody, idParam, routes, timestamp } from '../../http/contract.js';
import { fileViewSchema } from '../files/file-view.js';
import { UserRole } from '../users/user.entity.js';
import { grantSchema } from './access.schemas.js';
import { GrantStatus } from './access.types.js';

const userSummary = z.object({ id: z.guid(), name: z.string(), email: z.string() });

/** The REST shape of a grant (spec section 3: "File access"), with its status. */
export const grantViewSchema = component(
  'FileAccess',
  z
    .object({
      id: z.guid(),
      user: userSummary,
      canView: z.boolean().meta({ description: 'False once revoked.' }),
      grantedAt: timestamp,
      expiresAt: timestamp.nullable().meta({ description: 'Null: never expires.' }),
      status: z
        .enum(GrantStatus)
        .meta({ description: 'Expired past expiresAt; else Active if canView; else Revoked.' }),
    })
    .meta({ description: "A user's grant to see one file." }),
);
export type GrantBody = z.output<typeof grantViewSchema>;

const grantBody = component('GrantAnswer', dataBody(grantViewSchema, { message: z.string() }));

/** REST /api/v1/admin/file-access (access.routes.ts). */
export const accessContract = routes([
  {
    operationId: 'fileAccessList',
    method: 'get',
    path: '/admin/file-access/file/:fileId',
    tag: 'access',
    summary: "A file's grants and every user to choose from",
    caller: 'admin',
    params: z.object({ fileId: idParam('The file id.') }),
    answers: {
      200: {
        description: 'The file with its grants (revoked and expired included, newest first), and every user by name.',
        json: dataBody(
          z.object({
            file: fileViewSchema.extend({ fileAccesses: z.array(grantViewSchema) }),
            allUsers: z.array(userSummary.extend({ role: z.enum(UserRole) })),
          }),
        ),
      },
    },
  },
  {
    operationId: 'grantAccess',
    method: 'post',
    path: '/admin/file-access',
    tag: 'access',
    summary: 'Grant a user a file',
    description: 'A revoked or expired grant of the pair is renewed; a live one is a conflict (409).',
    caller: 'admin',
    body: { required: true, json: grantSchema },
    answers: { 201: { description: 'The grant.', json: grantBody } },
    errors: ['CONFLICT'],
  },
  {
    operationId: 'revokeAccess',
    method: 'delete',
    path: '/admin/file-access/:id',
    tag: 'access',
    summary: 'Revoke a grant',
    description: "The user's players are told at once and stop.",
    caller: 'admin',
    params: z.object({ id: idParam('The grant id.') }),
    answers: { 200: { description: 'The revoked grant.', json: grantBody } },
  },
]);
