import { z } from 'zod';
import { idField } from '../../validation.js';

const expirySchema = z
  .union([z.date(), z.string().trim().meta({ format: 'date-time' })], { error: 'expiresAt must be a date and time' })
  .nullish()
  .transform((value, issues) => {
    if (value === null || value === undefined || value === '') return null;
    const date = value instanceof Date ? value : new Date(value);
    if (Number.isNaN(date.getTime())) {
      issues.addIssue({ code: 'custom', message: 'expiresAt must be a date and time' });
      return z.NEVER;
    }
    return date;
  })
  .refine((date) => date === null || date.getTime() > Date.now(), 'expiresAt must be in the future')
  .meta({ description: 'When the grant ends, in the future; absent, null or empty: never.' });

/** A grant: REST POST /admin/file-access and the grantAccess mutation. */
export const grantSchema = z.object({
  userId: idField('userId', 'Please select a user'),
  fileId: idField('fileId'),
  expiresAt: expirySchema,
});
