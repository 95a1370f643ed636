import type { MeteredCredential } from './rip-meter.js';

/** A session or API key suspected of ripping: administrators' dashboards, and every replica's meter. */
export interface RipAlertPayload {
  /** The audit entry's id. */
  id: string;
  userId: string;
  email: string | null;
  /** The device session (with its start) or API key the meter throttled. */
  credential: MeteredCredential;
  rule: string;
  fileId: string | null;
  speed: number;
  windowSeconds: number;
  addresses: string[];
  accountLocked: boolean;
  apiKeyRevoked: boolean;
  throttledUntil: string;
  at: string;
}

declare module '../../event-bus.js' {
  interface AppEvents {
    RIP_SUSPECTED: [payload: RipAlertPayload];
  }
}
