import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../errors.js';
import { hasRequestBody } from './body-timeout.js';

const parseJson = express.json({ limit: '100kb', strict: true });

/** JSON bodies, at most 100 kB; multipart goes on to its route; other content types are refused. */
export function jsonBody(req: Request, res: Response, next: NextFunction): void {
  if (req.is('multipart/form-data')) return next();
  if (hasRequestBody(req) && !req.is('application/json')) {
    next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be application/json'));
    return;
  }
  parseJson(req, res, next);
}
