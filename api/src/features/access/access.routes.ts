import { z } from 'zod';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { component, dataBody, idParam, timestamp } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { createFileLoaders } from '../files/file-loaders.js';
import { fileViewSchema, presentFile } from '../files/file-view.js';
import type { UserSummary } from '../users/user-list.js';
import { UserRole } from '../users/user.entity.js';
import { grantSchema } from './access.schemas.js';
import * as access from './access.service.js';
import { GrantStatus } from './access.types.js';
import { everyUserByName, fileAccessList } from './grant-list.js';

const summaryOf = (u: Pick<UserSummary, 'id' | 'name' | 'email'>) => ({ id: u.id, name: u.name, email: u.email });

function presentGrant(grant: access.GrantView): GrantBody {
  return { ...grant, user: summaryOf(grant.user) };
}

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

const grantAnswer = component('GrantAnswer', dataBody(grantViewSchema, { message: z.string() }));

/** REST /api/v1/admin/file-access. */
export const accessRoutes = routes([
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
    scopes: [ApiKeyScope.ACCESS_WRITE],
    async handle({ ctx, params, res }) {
      const list = await fileAccessList(ctx, params.fileId);
      const [file, allUsers] = await Promise.all([
        presentFile(list.file, createFileLoaders(ctx.em)),
        everyUserByName(ctx),
      ]);
      sendData(res, {
        file: { ...file, fileAccesses: list.grants.map(presentGrant) },
        allUsers: allUsers.map((u) => ({ ...summaryOf(u), role: u.role })),
      });
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
    answers: { 201: { description: 'The grant.', json: grantAnswer } },
    errors: ['CONFLICT'],
    scopes: [ApiKeyScope.ACCESS_WRITE],
    async handle({ ctx, body, res }) {
      const grant = await access.grantAccess(ctx, body ?? {});
      sendData(res, presentGrant(grant), { message: 'Access granted successfully' }, 201);
    },
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
    answers: { 200: { description: 'The revoked grant.', json: grantAnswer } },
    scopes: [ApiKeyScope.ACCESS_WRITE],
    async handle({ ctx, params, res }) {
      const grant = await access.revokeAccess(ctx, params.id);
      sendData(res, presentGrant(grant), { message: 'Access revoked successfully' });
    },
  },
]);
