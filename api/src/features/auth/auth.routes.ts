import { z } from 'zod';
import { AppError } from '../../errors.js';
import { component, dataBody, doneBody, timestamp } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { userAnswer, userViewSchema, userView } from '../users/user-view.js';
import { deviceDataSchema, loginSchema, registerSchema, updateDetailsSchema } from './auth.schemas.js';
import * as auth from './auth.service.js';
import { DeviceWarningKind } from './auth.types.js';
import { deviceViewSchema, deviceView } from './device-view.js';
import * as devices from './devices.service.js';
import { login, type LoginResult } from './login.service.js';

/** The login response's fields stand at the top level, as clients read them; `data` is the user. */
function loginAnswer(result: LoginResult): LoginAnswer {
  const user = result.user && userView(result.user);
  return { ...result, user, deviceSession: result.deviceSession && deviceView(result.deviceSession), data: user };
}

const warningSchema = z.object({
  id: z.string(),
  type: z.enum(DeviceWarningKind),
  message: z.string(),
  deviceName: z.string().nullable(),
  timestamp,
});

/** What login and register answer, the spec's fields at the top level (DESIGN section 1). */
export const loginAnswerSchema = component(
  'LoginAnswer',
  z
    .object({
      success: z.boolean().meta({ description: 'True once signed in; false while the device approval is to come.' }),
      message: z.string(),
      requiresDeviceApproval: z.boolean().meta({
        description: 'Show the single-device policy, then repeat the same request with deviceApproved: true.',
      }),
      token: z.string().nullable().meta({ description: 'Bearer token bound to this device session.' }),
      user: userViewSchema.nullable(),
      deviceSession: deviceViewSchema.nullable(),
      warnings: z.array(warningSchema),
      data: userViewSchema.nullable().meta({ description: 'The user again, as every success body has data.' }),
    })
    .meta({ description: 'Signed in, or awaiting the device approval.' }),
);
export type LoginAnswer = z.output<typeof loginAnswerSchema>;

const deactivatedCount = z.int().min(0);

/** REST /api/v1/auth and /api/v1/devices. */
export const authRoutes = routes([
  {
    operationId: 'login',
    method: 'post',
    path: '/auth/login',
    tag: 'auth',
    summary: 'Sign in from a device',
    description:
      'A device with no session first answers requiresDeviceApproval (nothing signed in); the repeat with deviceApproved: true signs in. A sign-in from a further device while the allowed ones are active locks the account (403 ACCOUNT_LOCKED).',
    caller: 'anyone',
    body: { required: true, json: loginSchema },
    answers: { 200: { description: 'Signed in, or awaiting the device approval.', json: loginAnswerSchema } },
    errors: ['ACCOUNT_LOCKED'],
    scopes: 'deviceOnly',
    async handle({ ctx, body, res }) {
      res.status(200).json(loginAnswer(await login(ctx, body ?? {})));
    },
  },
  {
    operationId: 'register',
    method: 'post',
    path: '/auth/register',
    tag: 'auth',
    summary: 'Create an account and sign in on this device',
    description:
      'First answers requiresDeviceApproval (200, nothing created); repeated with deviceApproved: true it creates the account (201).',
    caller: 'anyone',
    body: { required: true, json: registerSchema },
    answers: {
      200: { description: 'Awaiting the device approval; no account yet.', json: loginAnswerSchema },
      201: { description: 'The account exists and this device is signed in.', json: loginAnswerSchema },
    },
    errors: ['CONFLICT'],
    scopes: 'deviceOnly',
    async handle({ ctx, body, res }) {
      const result = await auth.register(ctx, body ?? {});
      // 201 once the account exists; 200 while the device approval is still to come.
      res.status(result.success ? 201 : 200).json(loginAnswer(result));
    },
  },
  {
    operationId: 'logout',
    method: 'post',
    path: '/auth/logout',
    tag: 'auth',
    summary: 'End the session on this device',
    caller: 'signedIn',
    answers: { 200: { description: 'Signed out.', json: doneBody } },
    scopes: 'deviceOnly',
    async handle({ ctx, res }) {
      await auth.logout(ctx);
      sendData(res, null, { message: 'Logged out' });
    },
  },
  {
    operationId: 'me',
    method: 'get',
    path: '/auth/me',
    tag: 'auth',
    summary: 'The signed-in user (for an API key: the user it acts for)',
    caller: 'signedIn',
    answers: { 200: { description: 'The user.', json: userAnswer } },
    scopes: [],
    handle({ ctx, res }) {
      sendData(res, userView(auth.me(ctx)));
    },
  },
  {
    operationId: 'updateMyDetails',
    method: 'put',
    path: '/auth/updatedetails',
    tag: 'auth',
    summary: 'Change your name and email',
    caller: 'signedIn',
    body: { required: true, json: updateDetailsSchema },
    answers: { 200: { description: 'The changed user.', json: userAnswer } },
    errors: ['CONFLICT'],
    scopes: 'deviceOnly',
    async handle({ ctx, body, res }) {
      sendData(res, userView(await auth.updateMyDetails(ctx, body ?? {})));
    },
  },
  {
    operationId: 'myDevices',
    method: 'get',
    path: '/devices',
    tag: 'devices',
    summary: 'Your active devices',
    caller: 'signedIn',
    answers: { 200: { description: 'Most recently active first.', json: dataBody(z.array(deviceViewSchema)) } },
    scopes: 'deviceOnly',
    async handle({ ctx, res }) {
      const mine = await devices.myDevices(ctx);
      sendData(
        res,
        mine.map((d) => deviceView(d, devices.isCurrentSession(ctx.caller, d))),
      );
    },
  },
  {
    operationId: 'deactivateOtherDevices',
    method: 'delete',
    path: '/devices/others',
    tag: 'devices',
    summary: 'Sign out every other device',
    caller: 'signedIn',
    answers: {
      200: {
        description: 'How many were signed out, in data and beside it.',
        json: dataBody(z.object({ deactivatedCount }), { deactivatedCount, message: z.string() }),
      },
    },
    scopes: 'deviceOnly',
    async handle({ ctx, res }) {
      const count = await devices.deactivateOtherDevices(ctx);
      sendData(
        res,
        { deactivatedCount: count },
        { deactivatedCount: count, message: `Successfully deactivated ${count} device(s)` },
      );
    },
  },
  {
    operationId: 'deactivateDevice',
    method: 'delete',
    path: '/devices/:deviceId',
    tag: 'devices',
    summary: 'Sign out one of your other devices',
    description: 'Use logout for this device (400).',
    caller: 'signedIn',
    params: z.object({
      deviceId: deviceDataSchema.shape.deviceId.meta({ description: 'The device id (X-Device-ID) or the session id.' }),
    }),
    answers: { 200: { description: 'Signed out.', json: doneBody } },
    scopes: 'deviceOnly',
    async handle({ ctx, params, res }) {
      if (!params.deviceId) throw new AppError('BAD_USER_INPUT', 'deviceId is required');
      await devices.deactivateDevice(ctx, params.deviceId);
      sendData(res, null, { message: 'Device deactivated' });
    },
  },
]);
