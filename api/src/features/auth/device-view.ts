import { z } from 'zod';
import { component, timestamp } from '../../http/contract.js';
import type { DeviceSession } from './device-session.entity.js';

/** The REST shape of a device session (spec section 3: "Session or device"). */
export const deviceViewSchema = component(
  'DeviceSession',
  z
    .object({
      id: z.guid(),
      deviceId: z.string().meta({ description: 'The client-generated device id (X-Device-ID).' }),
      deviceName: z.string(),
      deviceType: z.string().meta({ description: 'mobile, tablet or other.' }),
      ipAddress: z.string().nullable(),
      lastActivity: timestamp,
      createdAt: timestamp.meta({ description: 'When the current session on this device began.' }),
      isCurrent: z.boolean().optional().meta({ description: "Whether it is the caller's own session (own lists)." }),
    })
    .meta({ description: 'A device an account is signed in on.' }),
);
export type DeviceView = z.output<typeof deviceViewSchema>;

export function deviceView(session: DeviceSession, isCurrent?: boolean): DeviceView {
  return {
    id: session.id,
    deviceId: session.deviceId,
    deviceName: session.deviceName,
    deviceType: session.deviceType,
    ipAddress: session.ipAddress ?? null,
    lastActivity: session.lastActivity,
    createdAt: session.createdAt,
    ...(isCurrent === undefined ? {} : { isCurrent }),
  };
}
