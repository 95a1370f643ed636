import { z } from 'zod';

export const emailSchema = z
  .string()
  .trim()
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email('Please enter a valid email address'))
  .transform((email) => email.toLowerCase())
  .meta({ format: 'email' });

export const passwordSchema = z
  .string()
  .min(8, 'Password must be at least 8 characters')
  .max(128, 'Password must be at most 128 characters');

export const nameSchema = z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters');

const shortText = (max: number) => z.string().max(max).optional().nullable();

export const deviceDataSchema = z.object({
  deviceId: z
    .string()
    .min(8, 'deviceData.deviceId is required')
    .max(128, 'deviceData.deviceId is too long')
    .regex(/^[A-Za-z0-9_.:-]+$/, 'deviceData.deviceId has characters that are not allowed'),
  deviceFingerprint: shortText(64),
  deviceName: shortText(200),
  timezone: shortText(64),
  language: shortText(35),
  platform: shortText(64),
  cookieEnabled: z.boolean().optional().nullable(),
  doNotTrack: z
    .union([z.string().max(16), z.boolean()])
    .optional()
    .nullable(),
  browser: shortText(40),
  os: shortText(40),
  deviceType: shortText(20),
});
export type DeviceData = z.infer<typeof deviceDataSchema>;

export const loginSchema = z.object({
  email: z
    .string({ error: 'Please enter both email and password' })
    .min(1, 'Please enter both email and password')
    .pipe(emailSchema)
    .meta({ format: 'email' }),
  password: z
    .string({ error: 'Please enter both email and password' })
    .min(1, 'Please enter both email and password')
    .max(128, 'Invalid email or password'),
  deviceApproved: z.boolean().optional().default(false),
  deviceData: deviceDataSchema,
});
export type LoginInput = z.input<typeof loginSchema>;

export const registerSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  deviceApproved: z.boolean().optional().default(false),
  deviceData: deviceDataSchema,
});
export type RegisterInput = z.input<typeof registerSchema>;

export const updateDetailsSchema = z.object({ name: nameSchema, email: emailSchema });
export type UpdateDetailsInput = z.input<typeof updateDetailsSchema>;
