import type { User } from '../users/user.entity.js';
import type { DeviceSession } from './device-session.entity.js';

/** A signed-in user on one of their device sessions. */
export interface SessionCaller {
  user: User;
  session: DeviceSession;
  apiKey: null;
}

declare module '../../context.js' {
  interface CallerKinds {
    session: SessionCaller;
  }
}
