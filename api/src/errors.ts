export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'CONFLICT'
  | 'ACCOUNT_LOCKED'
  | 'DEVICE_APPROVAL_REQUIRED'
  | 'RATE_LIMITED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RANGE_NOT_SATISFIABLE'
  | 'INSUFFICIENT_STORAGE'
  | 'INTERNAL';

const httpStatusByCode: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  CONFLICT: 409,
  ACCOUNT_LOCKED: 403,
  DEVICE_APPROVAL_REQUIRED: 403,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  INSUFFICIENT_STORAGE: 507,
  INTERNAL: 500,
};

/** The one error type services throw; each transport turns it into its own shape. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get httpStatus(): number {
    return httpStatusByCode[this.code];
  }
}

/**
 * A database refusal caused by the caller's text rather than by the server: PostgreSQL cannot
 * store a NUL character (22021) nor an escape it cannot translate (22P05), in text or jsonb.
 */
export function fromDatabaseInputError(err: unknown): AppError | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '22021' || code === '22P05') return new AppError('BAD_USER_INPUT', 'Text must not contain NUL characters');
  return null;
}
