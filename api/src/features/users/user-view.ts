import { z } from 'zod';
import { component, dataBody, timestamp } from '../../http/contract.js';
import { isAdmin } from '../../caller-policy.js';
import { UserRole } from './user.entity.js';
import type { UserSummary } from './user-list.js';

/** The REST shape of a user (spec section 3): explicit fields, so nothing hidden can slip out. */
export const userViewSchema = component(
  'User',
  z
    .object({
      id: z.guid(),
      name: z.string(),
      email: z.string(),
      role: z.enum(UserRole),
      isAdmin: z.boolean(),
      isLocked: z.boolean().meta({ description: 'Locked by the single-device policy or an administrator.' }),
      lockUntil: timestamp.nullable().meta({ description: 'Temporary lock after repeated failed sign-ins.' }),
      avatarUrl: z.string().nullable(),
      createdAt: timestamp,
      sessionCount: z.int().min(0).optional().meta({ description: 'Active device sessions (admin lists).' }),
      hasMultipleSessions: z.boolean().optional(),
    })
    .meta({ description: 'An account. Never carries the password hash.' }),
);
export type UserView = z.output<typeof userViewSchema>;

/** The answer of every route that returns one user. */
export const userAnswer = component('UserAnswer', dataBody(userViewSchema));

export function userView(u: UserSummary, sessionCount?: number): UserView {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    isAdmin: isAdmin(u),
    isLocked: u.isLocked,
    lockUntil: u.lockUntil ?? null,
    avatarUrl: u.avatarUrl ?? null,
    createdAt: u.createdAt,
    ...(sessionCount === undefined ? {} : { sessionCount, hasMultipleSessions: sessionCount > 1 }),
  };
}
