/**
 * Every code an error can carry (GraphQL `extensions.code`, REST `error.code`), with the HTTP status
 * it answers with and what it means. The one list: the schema's ErrorCode enum and the table in
 * docs/api.md are made from it (a test compares that table with it).
 */
export const errorCodes = {
  UNAUTHENTICATED: { httpStatus: 401, meaning: 'No credential, or a bad, ended or revoked one.' },
  FORBIDDEN: {
    httpStatus: 403,
    meaning: 'Signed in, but not allowed: role or API key scope; or a stream URL that no longer holds.',
  },
  NOT_FOUND: { httpStatus: 404, meaning: 'No such thing, or not visible to the caller.' },
  BAD_USER_INPUT: { httpStatus: 400, meaning: 'The input is invalid; `field` names it when known.' },
  CONFLICT: { httpStatus: 409, meaning: 'It exists already, or its state forbids the change.' },
  ACCOUNT_LOCKED: { httpStatus: 403, meaning: 'The account is locked.' },
  DEVICE_APPROVAL_REQUIRED: { httpStatus: 403, meaning: 'Sign-in from a new device must be approved first.' },
  RATE_LIMITED: { httpStatus: 429, meaning: 'Too many requests; retry later (after Retry-After, when given).' },
  PAYLOAD_TOO_LARGE: { httpStatus: 413, meaning: 'The body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { httpStatus: 415, meaning: "The body's type or encoding is not accepted." },
  RANGE_NOT_SATISFIABLE: { httpStatus: 416, meaning: 'The byte range is outside the file.' },
  INSUFFICIENT_STORAGE: { httpStatus: 507, meaning: "The server's disk is full." },
  INTERNAL: { httpStatus: 500, meaning: 'A server fault, logged with the reference given in the message.' },
} as const satisfies Record<string, { httpStatus: number; meaning: string }>;

export type ErrorCode = keyof typeof errorCodes;

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
    return errorCodes[this.code].httpStatus;
  }
}

/**
 * A database refusal caused by the caller's text rather than by the server: PostgreSQL cannot
 * store a NUL character (22021) nor an escape it cannot translate (22P05), in text or jsonb.
 */
export function fromDatabaseInputError(err: unknown): AppError | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '22021' || code === '22P05')
    return new AppError('BAD_USER_INPUT', 'Text must not contain NUL characters');
  return null;
}
