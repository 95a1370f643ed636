import { z } from 'zod';
import { dataBody, doneBody, idParam, routes } from '../../http/contract.js';
import { listQuerySchema } from '../../http/list-query.js';
import { deviceViewSchema } from '../auth/device-view.js';
import { userAnswer, userViewSchema } from './user-view.js';
import { createUserSchema, updateUserSchema } from './users.schemas.js';

const userId = z.object({ id: idParam('The user id.') });
const count = z.int().min(0);

/** REST /api/v1/admin/users: accounts, their locks and device sessions (users.routes.ts, user-sessions.routes.ts). */
export const usersContract = routes([
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
  },
]);
