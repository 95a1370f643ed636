// Device identity as the server's single-device policy sees it: a stable id per browser profile,
// plus readable facts (browser, OS, type) shown on the Device Security screens.
import type { DeviceDataInput } from '../gql/graphql';

export type Browser = 'Chrome' | 'Firefox' | 'Safari' | 'Edge' | 'Unknown';
export type OperatingSystem = 'Windows' | 'macOS' | 'Linux' | 'Android' | 'iOS' | 'Unknown';
export type DeviceType = 'Desktop' | 'Mobile' | 'Tablet';

export interface DeviceInfo {
  deviceId: string;
  fingerprint: string;
  browser: Browser;
  os: OperatingSystem;
  deviceType: DeviceType;
  deviceName: string;
  userAgent: string;
  language: string;
  timezone: string;
  screenSize: string;
  platform: string;
}

/** The localStorage key of this browser profile's device id. */
export const DEVICE_ID_KEY = 'deviceId';
let pageDeviceId: string | null = null;

function timezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
}

function screenSize(): string {
  return `${window.screen.width}x${window.screen.height}x${window.screen.colorDepth}`;
}

/** Synchronous 53-bit string hash (cyrb53): crypto.subtle needs a secure context and is async. */
function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

export function deviceFingerprint(): string {
  return hash([navigator.userAgent, navigator.language, timezone(), screenSize(), navigator.platform].join('|'));
}

function randomPart(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Created once; the random and time parts keep two identical browsers apart. */
export function getDeviceId(): string {
  try {
    pageDeviceId = localStorage.getItem(DEVICE_ID_KEY) ?? pageDeviceId;
  } catch {
    // Storage may be blocked; the id then lives for this page only.
  }
  if (pageDeviceId) return pageDeviceId;
  pageDeviceId = `${deviceFingerprint()}-${randomPart()}-${Date.now().toString(36)}`;
  try {
    localStorage.setItem(DEVICE_ID_KEY, pageDeviceId);
  } catch {
    // Same as above.
  }
  return pageDeviceId;
}

export function detectBrowser(ua: string): Browser {
  // Order matters: Edge and Chrome both claim Safari; Edge also claims Chrome.
  if (/Edg(e|A|iOS)?\//.test(ua)) return 'Edge';
  if (/Firefox\/|FxiOS\//.test(ua)) return 'Firefox';
  if (/Chrome\/|CriOS\/|Chromium\//.test(ua)) return 'Chrome';
  if (/Safari\//.test(ua)) return 'Safari';
  return 'Unknown';
}

export function detectOs(ua: string, touchPoints = 0): OperatingSystem {
  if (/Windows/.test(ua)) return 'Windows';
  if (/iPhone|iPad|iPod/.test(ua)) return 'iOS';
  // iPadOS reports itself as a Mac; only the touch screen gives it away.
  if (/Macintosh|Mac OS X/.test(ua)) return touchPoints > 1 ? 'iOS' : 'macOS';
  if (/Android/.test(ua)) return 'Android';
  if (/Linux|X11/.test(ua)) return 'Linux';
  return 'Unknown';
}

export function detectDeviceType(ua: string, touchPoints = 0): DeviceType {
  if (/iPad|Tablet/.test(ua) || (/Android/.test(ua) && !/Mobile/.test(ua))) return 'Tablet';
  if (/Macintosh/.test(ua) && touchPoints > 1) return 'Tablet';
  if (/Mobi|iPhone|iPod|Android/.test(ua)) return 'Mobile';
  return 'Desktop';
}

export function getDeviceInfo(): DeviceInfo {
  const ua = navigator.userAgent;
  const touch = navigator.maxTouchPoints ?? 0;
  const browser = detectBrowser(ua);
  const os = detectOs(ua, touch);
  return {
    deviceId: getDeviceId(),
    fingerprint: deviceFingerprint(),
    browser,
    os,
    deviceType: detectDeviceType(ua, touch),
    deviceName: `${browser} on ${os}`,
    userAgent: ua,
    language: navigator.language,
    timezone: timezone(),
    screenSize: screenSize(),
    platform: navigator.platform,
  };
}

/** The deviceData part of the login and register inputs. */
export function deviceData(): DeviceDataInput {
  const info = getDeviceInfo();
  return {
    deviceId: info.deviceId,
    deviceFingerprint: info.fingerprint,
    deviceName: info.deviceName,
    timezone: info.timezone,
    language: info.language,
    platform: info.platform,
    cookieEnabled: navigator.cookieEnabled,
    doNotTrack: navigator.doNotTrack ?? null,
    browser: info.browser,
    os: info.os,
    deviceType: info.deviceType,
  };
}
