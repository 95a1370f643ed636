import { getDeviceId } from './device';
import { getToken } from './stored-session';

/** Headers every call carries: the bearer token when signed in and the device id always. */
export function authHeaders(): Record<string, string> {
  const token = getToken();
  return {
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
    'X-Device-ID': getDeviceId(),
  };
}
