// Turning failed sign-in and registration calls into the texts the spec prescribes.
import { GraphqlCallError, GraphqlNetworkError } from '../../app/graphql-request';

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A login the server answered but did not grant; its message is shown as the server's text. */
export class LoginRefused extends Error {
  override name = 'LoginRefused';
}

/**
 * The text a failed call carries: the server's error message first, then the error's own
 * message; null when the failure is not a call failure at all (a bug, reported generically).
 */
export function callErrorText(error: unknown): string | null {
  if (error instanceof GraphqlCallError) return error.errors[0]?.message || error.message;
  if (error instanceof LoginRefused) return error.message;
  // No answer from the API (down, proxy error page, offline): say so in words the mapping knows.
  if (error instanceof GraphqlNetworkError || error instanceof TypeError) {
    return `Network error: ${error.message}`;
  }
  return null;
}

/** The sign-in screen's mapping from service text to what the user reads. */
export function loginScreenMessage(text: string): string {
  const t = text.toLowerCase();
  if (t.includes('credentials') || t.includes('invalid email or password')) return 'Invalid email or password';
  if (t.includes('network') || t.includes('connect')) return 'Unable to connect to server. Please try again later.';
  if (t.includes('token')) return 'Authentication error. Please try again.';
  return text || 'Login failed. Please try again.';
}
