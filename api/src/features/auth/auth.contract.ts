import { z } from 'zod';
import { component, dataBody, doneBody, routes, timestamp } from '../../http/contract.js';
import { userAnswer, userViewSchema } from '../users/user-view.js';
import { deviceDataSchema, loginSchema, registerSchema, updateDetailsSchema } from './auth.schemas.js';
import { DeviceWarningKind } from './auth.types.js';
import { deviceViewSchema } from './device-view.js';

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

/** REST /api/v1/auth and /api/v1/devices (auth.routes.ts). */
export const authContract = routes([
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
  },
  {
    operationId: 'logout',
    method: 'post',
    path: '/auth/logout',
    tag: 'auth',
    summary: 'End the session on this device',
    caller: 'signedIn',
    answers: { 200: { description: 'Signed out.', json: doneBody } },
  },
  {
    operationId: 'me',
    method: 'get',
    path: '/auth/me',
    tag: 'auth',
    summary: 'The signed-in user (for an API key: the user it acts for)',
    caller: 'signedIn',
    answers: { 200: { description: 'The user.', json: userAnswer } },
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
  },
  {
    operationId: 'myDevices',
    method: 'get',
    path: '/devices',
    tag: 'devices',
    summary: 'Your active devices',
    caller: 'signedIn',
    answers: { 200: { description: 'Most recently active first.', json: dataBody(z.array(deviceViewSchema)) } },
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
  },
]);
