import type { NextFunction, Request, Response } from 'express';
import { AppError, fromDatabaseInputError } from '../errors.js';
import type { Logger } from '../logger.js';
import { uuidPattern } from '../validation.js';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/** The AppError a failure stands for, when it is one the client caused or may know of; null otherwise. */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const fromDatabase = fromDatabaseInputError(err);
  if (fromDatabase) return fromDatabase;
  const e = err as BodyParserError;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new AppError('BAD_USER_INPUT', 'Malformed JSON body');
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding');
    case 'request.aborted':
      return new AppError('BAD_USER_INPUT', 'Request was aborted');
  }
  if (e?.status && e.status >= 400 && e.status < 500) return new AppError('BAD_USER_INPUT', 'Bad request');
  return null;
}

/** The REST failure body: `{ success: false, message, error: { code, message, ...details } }`. */
export function errorBody(error: AppError) {
  return {
    success: false,
    message: error.message,
    error: { code: error.code, message: error.message, ...(error.details ?? {}) },
  };
}

export function sendError(res: Response, error: AppError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(error.httpStatus).json(errorBody(error));
}

/**
 * The path as logged: the matched route's pattern, or, when no route matched, the path with every
 * long opaque segment masked. Some paths carry a credential (/drm/stream/<token>).
 */
export function loggedPath(req: Pick<Request, 'path' | 'baseUrl' | 'route'>): string {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof route === 'string') return `${req.baseUrl}${route}`;
  return req.path.replace(/[A-Za-z0-9_-]{20,}/g, (segment) => (uuidPattern.test(segment) ? segment : '[masked]'));
}

/** The one REST error formatter: AppError to its status, anything unknown to a logged 500. */
export function errorHandler(logger: Logger) {
  // Express recognises error handlers by their four parameters.
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const known = toAppError(err);
    if (known) return sendError(res, known);
    sendError(
      res,
      internalError(logger, err, {
        requestId: res.getHeader('X-Request-ID'),
        method: req.method,
        path: loggedPath(req),
      }),
    );
  };
}

/**
 * Logs a failure no formatter knows, with the request's id, method and path (never one holding a
 * credential: see loggedPath), and gives the 500 that names the request to the client.
 */
export function internalError(
  logger: Logger,
  err: unknown,
  request: { requestId: unknown; method: string | undefined; path: string },
): AppError {
  const requestId = request.requestId ?? 'unknown';
  logger.error('http.unhandled', {
    requestId,
    method: request.method,
    path: request.path,
    error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err),
  });
  return new AppError('INTERNAL', `Internal server error (reference ${String(requestId)})`);
}

/** A request's failure as a whole in the GraphQL response shape. */
export function graphqlErrorBody(error: AppError) {
  return { errors: [{ message: error.message, extensions: { code: error.code } }], data: null };
}

/** Errors raised before Apollo runs (a bad token, a bad body) in the GraphQL response shape. */
export function graphqlHttpErrorHandler(logger: Logger) {
  const rest = errorHandler(logger);
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    const known = toAppError(err);
    if (!known || res.headersSent) return rest(err, req, res, next);
    res.status(known.httpStatus).json(graphqlErrorBody(known));
  };
}

export function notFoundHandler(_req: Request, res: Response): void {
  sendError(res, new AppError('NOT_FOUND', 'Route not found'));
}
