import type { Response } from 'express';

/** The REST success body: `{ success: true, data, ...extra }`. */
export function sendData(res: Response, data: unknown, extra: Record<string, unknown> = {}, status = 200): void {
  res.status(status).json({ success: true, data, ...extra });
}
