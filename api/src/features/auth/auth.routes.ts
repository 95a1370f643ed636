import { Router } from 'express';
import { AppError } from '../../errors.js';
import { sendData } from '../../http/respond.js';
import { userView } from '../users/user-view.js';
import type { LoginAnswer } from './auth.contract.js';
import * as auth from './auth.service.js';
import { deviceView } from './device-view.js';
import * as devices from './devices.service.js';
import { login, type LoginResult } from './login.service.js';

/** The login response's fields stand at the top level, as clients read them; `data` is the user. */
function loginAnswer(result: LoginResult): LoginAnswer {
  const user = result.user && userView(result.user);
  return { ...result, user, deviceSession: result.deviceSession && deviceView(result.deviceSession), data: user };
}

/** REST /api/v1/auth and /api/v1/devices: thin adapters over the auth service. */
export function authRoutes(): Router {
  const router = Router();

  router.post('/auth/login', async (req, res) => {
    res.status(200).json(loginAnswer(await login(res.locals.ctx, req.body ?? {})));
  });

  router.post('/auth/register', async (req, res) => {
    const result = await auth.register(res.locals.ctx, req.body ?? {});
    // 201 once the account exists; 200 while the device approval is still to come.
    res.status(result.success ? 201 : 200).json(loginAnswer(result));
  });

  router.post('/auth/logout', async (_req, res) => {
    await auth.logout(res.locals.ctx);
    sendData(res, null, { message: 'Logged out' });
  });

  router.get('/auth/me', (_req, res) => {
    sendData(res, userView(auth.me(res.locals.ctx)));
  });

  router.put('/auth/updatedetails', async (req, res) => {
    sendData(res, userView(await auth.updateMyDetails(res.locals.ctx, req.body ?? {})));
  });

  router.get('/devices', async (_req, res) => {
    const ctx = res.locals.ctx;
    const mine = await devices.myDevices(ctx);
    sendData(
      res,
      mine.map((d) => deviceView(d, devices.isCurrentSession(ctx.caller, d))),
    );
  });

  router.delete('/devices/others', async (_req, res) => {
    const count = await devices.deactivateOtherDevices(res.locals.ctx);
    sendData(
      res,
      { deactivatedCount: count },
      { deactivatedCount: count, message: `Successfully deactivated ${count} device(s)` },
    );
  });

  router.delete('/devices/:deviceId', async (req, res) => {
    if (!req.params.deviceId) throw new AppError('BAD_USER_INPUT', 'deviceId is required');
    await devices.deactivateDevice(res.locals.ctx, req.params.deviceId);
    sendData(res, null, { message: 'Device deactivated' });
  });

  return router;
}
