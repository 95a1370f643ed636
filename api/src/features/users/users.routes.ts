import { z } from 'zod';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { dataBody, doneBody, idParam } from '../../http/contract.js';
import { listQuerySchema, readListQuery } from '../../http/list-query.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { deviceViewSchema, deviceView } from '../auth/device-view.js';
import { createSessionLoaders } from '../auth/session-loaders.js';
import { listUsers } from './user-list.js';
import * as sessions from './user-sessions.service.js';
import { userAnswer, userViewSchema, userView } from './user-view.js';
import { createUserSchema, updateUserSchema } from './users.schemas.js';
import * as users from './users.service.js';

const userId = z.object({ id: idParam('The user id.') });
const count = z.int().min(0);

/** REST /api/v1/admin/users: accounts, their locks and device sessions. */
export const usersRoutes = routes([
  {
    operationId: 'countUsers',
    method: 'get',
    path: '/admin/users/count',
    tag: 'admin-users',
    summary: 'How many accounts exist',
    caller: 'admin',
    answers: {
      200: { description: 'The count, in data and beside it.', json: dataBody(z.object({ count }), { count }) },
    },
    scopes: [ApiKeyScope.USERS_READ],
    async handle({ ctx, res }) {
      const count = await users.userCount(ctx);
      sendData(res, { count }, { count });
    },
  },
  {
    operationId: 'listUsers',
    method: 'get',
    path: '/admin/users/with-sessions',
    tag: 'admin-users',
    summary: 'Users with their active session counts',
    caller: 'admin',
    query: listQuerySchema('Case-insensitive substring of the name, email or role.'),
    answers: {
      200: {
        description: 'One page of users, newest first, and how many match in all.',
        json: dataBody(z.array(userViewSchema), { total: count }),
      },
    },
    scopes: [ApiKeyScope.USERS_READ],
    async handle({ ctx, req, res }) {
      const { search, offset, limit } = readListQuery(req);
      const page = await listUsers(ctx, { search, offset, limit });
      const loaders = createSessionLoaders(ctx.em);
      const counts = await Promise.all(page.items.map((u) => loaders.activeSessionCount.load(u.id)));
      sendData(
        res,
        page.items.map((u, i) => userView(u, counts[i])),
        { total: page.total },
      );
    },
  },
  {
    operationId: 'createUser',
    method: 'post',
    path: '/admin/users',
    tag: 'admin-users',
    summary: 'Create an account with a role',
    caller: 'admin',
    body: { required: true, json: createUserSchema },
    answers: { 201: { description: 'The new account.', json: userAnswer } },
    errors: ['CONFLICT'],
    scopes: [ApiKeyScope.USERS_WRITE],
    async handle({ ctx, body, res }) {
      const user = await users.createUser(ctx, body ?? {});
      sendData(res, userView(user, 0), { message: 'User created successfully!' }, 201);
    },
  },
  {
    operationId: 'getUser',
    method: 'get',
    path: '/admin/users/:id',
    tag: 'admin-users',
    summary: 'One user',
    caller: 'admin',
    params: userId,
    answers: { 200: { description: 'The user.', json: userAnswer } },
    scopes: [ApiKeyScope.USERS_READ],
    async handle({ ctx, params, res }) {
      sendData(res, userView(await users.getUser(ctx, params.id)));
    },
  },
  {
    operationId: 'updateUser',
    method: 'put',
    path: '/admin/users/:id',
    tag: 'admin-users',
    summary: "Change a user's name, email, role or lock",
    description:
      'Absent or null fields stay as they are. Locking ends every session of the account; demoting an administrator ends all but the most recently used one.',
    caller: 'admin',
    params: userId,
    body: { required: false, json: updateUserSchema },
    answers: { 200: { description: 'The changed user.', json: userAnswer } },
    errors: ['CONFLICT'],
    scopes: [ApiKeyScope.USERS_WRITE],
    async handle({ ctx, params, body, res }) {
      const user = await users.updateUser(ctx, params.id, body ?? {});
      sendData(res, userView(user), { message: 'User updated successfully!' });
    },
  },
  {
    operationId: 'deleteUser',
    method: 'delete',
    path: '/admin/users/:id',
    tag: 'admin-users',
    summary: 'Delete a user',
    description: 'With their sessions, grants and checkpoints. Administrators cannot be deleted (403).',
    caller: 'admin',
    params: userId,
    answers: { 200: { description: 'Deleted.', json: doneBody } },
    scopes: [ApiKeyScope.USERS_WRITE],
    async handle({ ctx, params, res }) {
      const user = await users.deleteUser(ctx, params.id);
      sendData(res, null, { message: `User ${user.email} has been deleted successfully` });
    },
  },
  {
    operationId: 'unlockUser',
    method: 'patch',
    path: '/admin/users/:id/unlock',
    tag: 'admin-users',
    summary: 'Lift the policy lock and the temporary lock',
    caller: 'admin',
    params: userId,
    answers: { 200: { description: 'The unlocked user.', json: userAnswer } },
    scopes: [ApiKeyScope.USERS_WRITE],
    async handle({ ctx, params, res }) {
      const user = await sessions.unlockUser(ctx, params.id);
      sendData(res, userView(user), { message: `User ${user.email} has been unlocked successfully` });
    },
  },
  {
    operationId: 'listUserSessions',
    method: 'get',
    path: '/admin/users/:id/sessions',
    tag: 'admin-users',
    summary: "A user's active device sessions",
    caller: 'admin',
    params: userId,
    answers: {
      200: { description: 'Most recently active first.', json: dataBody(z.array(deviceViewSchema)) },
    },
    scopes: [ApiKeyScope.USERS_READ],
    async handle({ ctx, params, res }) {
      const list = await sessions.listUserSessions(ctx, params.id);
      sendData(
        res,
        list.map((s) => deviceView(s)),
      );
    },
  },
  {
    operationId: 'terminateUserSession',
    method: 'delete',
    path: '/admin/users/:id/sessions/:sessionId',
    tag: 'admin-users',
    summary: "End one of a user's sessions",
    description: 'The device is signed out at once (its open subscriptions are told).',
    caller: 'admin',
    params: userId.extend({ sessionId: idParam('The device session id.') }),
    answers: { 200: { description: 'Ended.', json: doneBody } },
    scopes: [ApiKeyScope.USERS_WRITE],
    async handle({ ctx, params, res }) {
      await sessions.terminateUserSession(ctx, params.id, params.sessionId);
      sendData(res, null, { message: 'Session terminated successfully' });
    },
  },
]);
