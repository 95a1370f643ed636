import { z } from 'zod';
import { emailSchema, nameSchema, passwordSchema } from '../auth/auth.schemas.js';
import { UserRole } from './user.entity.js';

export const roleSchema = z.enum(UserRole, { error: "role must be 'user' or 'admin'" });

/** An account an administrator creates: REST POST /admin/users and the createUser mutation. */
export const createUserSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  role: roleSchema.nullish().transform((r) => r ?? UserRole.user),
});

/** What an administrator changes; absent or null leaves a field as it is. */
export const updateUserSchema = z.object({
  name: nameSchema.nullish(),
  email: emailSchema.nullish(),
  role: roleSchema.nullish(),
  isLocked: z.boolean({ error: 'isLocked must be true or false' }).nullish(),
});
