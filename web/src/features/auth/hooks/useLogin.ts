import { useRef, useState } from 'react';
import { deviceData } from '../../../app/device';
import { requestGraphql } from '../../../app/graphql-request';
import { storeSession } from '../../../app/stored-session';
import { LoginDocument } from '../../../gql/graphql';
import { EMAIL_PATTERN, LoginRefused, callErrorText, loginScreenMessage } from '../auth-messages';

interface Credentials {
  email: string;
  password: string;
}

type Outcome = { kind: 'signedIn' } | { kind: 'approval'; message: string | null };

export interface ApprovalState {
  open: boolean;
  /** Server text replacing the modal's default policy line, when it sent one. */
  message: string | null;
  busy: boolean;
}

const APPROVAL_FAILED = 'Device approval failed. Please try again.';
const closedApproval: ApprovalState = { open: false, message: null, busy: false };

/** Sign-in with the single-device approval step; on success the browser reloads to `destination`. */
export function useLogin(destination: string) {
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [approval, setApproval] = useState<ApprovalState>(closedApproval);
  // Kept only between the first attempt and the user's answer in the approval modal.
  const pending = useRef<Credentials | null>(null);

  /** `refusal` is the text when the server declines without a message. */
  async function attempt(credentials: Credentials, deviceApproved: boolean, refusal: string): Promise<Outcome> {
    const data = await requestGraphql(LoginDocument, {
      input: { ...credentials, deviceApproved, deviceData: deviceData() },
    });
    const result = data?.login;
    if (!result) throw new LoginRefused(refusal);
    if (result.success) {
      if (!result.token || !result.user) throw new LoginRefused('No token received from server');
      storeSession({
        token: result.token,
        user: result.user,
        deviceSession: result.deviceSession ?? null,
        warnings: result.warnings,
      });
      // A full reload, so the session, the socket and the caches all start from the new token.
      window.location.assign(destination);
      return { kind: 'signedIn' };
    }
    if (result.requiresDeviceApproval) return { kind: 'approval', message: result.message ?? null };
    throw new LoginRefused(result.message || refusal);
  }

  async function submit(emailInput: string, password: string) {
    const email = emailInput.trim();
    setError(null);
    setNotice(null);
    if (!email || !password) return setError('Please enter both email and password');
    if (!EMAIL_PATTERN.test(email)) return setError('Please enter a valid email address');

    setSubmitting(true);
    try {
      const outcome = await attempt({ email, password }, false, 'Login failed');
      if (outcome.kind === 'approval') {
        pending.current = { email, password };
        setApproval({ open: true, message: outcome.message, busy: false });
        setSubmitting(false);
      }
      // Signed in: keep the spinner while the page reloads.
    } catch (e) {
      const text = callErrorText(e);
      setError(text === null ? 'An unexpected error occurred. Please try again.' : loginScreenMessage(text));
      setSubmitting(false);
    }
  }

  async function approve() {
    const credentials = pending.current;
    if (!credentials) {
      setApproval(closedApproval);
      return setError('No pending login data');
    }
    setApproval((a) => ({ ...a, busy: true }));
    try {
      const outcome = await attempt(credentials, true, APPROVAL_FAILED);
      if (outcome.kind === 'approval') throw new LoginRefused(outcome.message || 'Device approval required');
      pending.current = null;
    } catch (e) {
      pending.current = null;
      setApproval(closedApproval);
      const text = callErrorText(e);
      setError(text === null ? 'An unexpected error occurred during device approval.' : text || APPROVAL_FAILED);
    }
  }

  function cancelApproval() {
    pending.current = null;
    setApproval(closedApproval);
    setNotice('Login cancelled. You can try logging in from another device.');
  }

  return { submit, approve, cancelApproval, submitting, error, notice, approval };
}
