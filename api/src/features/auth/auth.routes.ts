import { Router } from 'express';
import { AppError } from '../../errors.js';
import { sendData } from '../../http/respond.js';
import * as auth from './auth.service.js';
import * as devices from './devices.service.js';
import { login } from './login.service.js';

/** REST /api/v1/auth and /api/v1/devices: thin adapters over the auth service. */
export function authRoutes(): Router {
  const router = Router();

  router.post('/auth/login', async (req, res) => {
    const result = await login(res.locals.ctx, req.body ?? {});
    // The login response's fields stand at the top level, as clients read them.
    res.status(200).json({ ...result, data: result.user });
  });

  router.post('/auth/register', async (req, res) => {
    const result = await auth.register(res.locals.ctx, req.body ?? {});
    // 201 once the account exists; 200 while the device approval is still to come.
    res.status(result.success ? 201 : 200).json({ ...result, data: result.user });
  });

  router.post('/auth/logout', async (_req, res) => {
    await auth.logout(res.locals.ctx);
    sendData(res, null, { message: 'Logged out' });
  });

  router.get('/auth/me', (_req, res) => {
    sendData(res, auth.me(res.locals.ctx));
  });

  router.put('/auth/updatedetails', async (req, res) => {
    sendData(res, await auth.updateMyDetails(res.locals.ctx, req.body ?? {}));
  });

  router.get('/devices', async (_req, res) => {
    const ctx = res.locals.ctx;
    const mine = await devices.myDevices(ctx);
    sendData(
      res,
      mine.map((d) => ({ ...d, user: undefined, isCurrent: devices.isCurrentSession(ctx.caller, d) })),
    );
  });

  router.delete('/devices/others', async (_req, res) => {
    const count = await devices.deactivateOtherDevices(res.locals.ctx);
    sendData(res, { deactivatedCount: count }, { deactivatedCount: count, message: `Successfully deactivated ${count} device(s)` });
  });

  router.delete('/devices/:deviceId', async (req, res) => {
    if (!req.params.deviceId) throw new AppError('BAD_USER_INPUT', 'deviceId is required');
    await devices.deactivateDevice(res.locals.ctx, req.params.deviceId);
    sendData(res, null, { message: 'Device deactivated' });
  });

  return router;
}
