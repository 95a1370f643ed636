import type { AppPubSub } from '../../event-bus.js';

export type SecurityEventType = 'FORCED_LOGOUT' | 'DEVICE_LOCKED' | 'SESSION_TERMINATED' | 'ACCESS_REVOKED';

export interface SecurityEventPayload {
  type: SecurityEventType;
  message: string;
  /** The device sessions it is for; null means every session of the user. */
  sessionIds: string[] | null;
  fileId: string | null;
  at: string;
}

declare module '../../event-bus.js' {
  interface AppEvents {
    SECURITY_EVENT: [userId: string, payload: SecurityEventPayload];
  }
}

export const securityMessages = {
  FORCED_LOGOUT: 'You have been signed out.',
  DEVICE_LOCKED:
    'Your account has been locked because a login was attempted from another device. Contact support to unlock it.',
  SESSION_TERMINATED: 'Your session was terminated by an administrator.',
  ACCESS_REVOKED: 'Your access to this file has been revoked.',
} satisfies Record<SecurityEventType, string>;

/**
 * Pushes a security event to some (or all) of a user's sessions, on every replica, and has every
 * replica forget what it cached of the user's access, so their next byte request is checked anew.
 */
export function publishSecurityEvent(
  pubSub: AppPubSub,
  userId: string,
  type: SecurityEventType,
  options: { sessionIds?: string[] | null; fileId?: string | null; message?: string } = {},
): void {
  pubSub.publish('SECURITY_EVENT', userId, {
    type,
    message: options.message ?? securityMessages[type],
    sessionIds: options.sessionIds ?? null,
    fileId: options.fileId ?? null,
    at: new Date().toISOString(),
  });
  pubSub.publish('ACCESS_CHANGED', { userId, fileId: null });
}
