import { useCallback } from 'react';
import { errorText } from '../admin-format';
import { useTimedMessage } from './useTimedMessage';

export interface BannerTimings {
  /** The spec: success clears after 5 s (users) or 3 s (files). */
  successMs: number;
  /** The spec: the unlock error clears after 5 s; unset, an error stays until the next action. */
  errorMs?: number;
}

export interface Banners {
  success: string | null;
  error: string | null;
  /** Shows a success that came from elsewhere (a form on the page); clears the error. */
  succeed: (message: string) => void;
  /** Runs an action: its resolved text shows as success, a failure as an error (server text or `failure`). */
  attempt: (action: () => Promise<string>, failure: string) => Promise<void>;
}

/** The success and error banners of an admin list page. */
export function useBanners({ successMs, errorMs }: BannerTimings): Banners {
  const [success, setSuccess] = useTimedMessage(successMs);
  const [error, setError] = useTimedMessage(errorMs ?? null);

  const succeed = useCallback(
    (message: string) => {
      setError(null);
      setSuccess(message);
    },
    [setError, setSuccess],
  );

  const attempt = useCallback<Banners['attempt']>(
    async (action, failure) => {
      try {
        succeed(await action());
      } catch (err) {
        setError(errorText(err, failure));
      }
    },
    [setError, succeed],
  );

  return { success, error, succeed, attempt };
}
