import { randomUUID } from 'node:crypto';
import { print } from 'graphql';
import type { Page } from 'playwright-core';
import { DEVICE_ID_KEY, detectBrowser, detectDeviceType, detectOs } from '../../src/app/device';
import { SESSION_KEYS } from '../../src/app/stored-session';
import { LoginDocument, type LoginMutation } from '../../src/gql/graphql';

/** Signs in through the sign-in screen as a person would, approving the device when asked. */
export async function signInThroughUi(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const proceed = page.getByRole('button', { name: 'I Understand - Proceed' });
  const library = page.getByRole('heading', { name: 'My Audio Library' });
  await Promise.race([proceed.waitFor(), library.waitFor()]);
  if (await proceed.isVisible()) await proceed.click();
  await library.waitFor();
}

const LOGIN = print(LoginDocument);

/**
 * Signs the page's browser profile in without the sign-in screen, for tests of what comes after
 * it: the same Login mutation the screen sends, from the page (so the server sees the browser's
 * user agent), approving the device when asked, then the session stored under the keys the app
 * reads. Then the page opens `landing`; on the library it waits for the library's heading.
 * The sign-in screen itself is tested through the screen (sign-in, lock, devices files).
 */
export async function signIn(page: Page, email: string, password: string, landing = '/'): Promise<void> {
  // Any page of the origin gives the script its local storage; the health check is the smallest.
  await page.goto('/healthz');
  const ua = await page.evaluate(() => navigator.userAgent);
  const browser = detectBrowser(ua);
  const os = detectOs(ua);
  const deviceData = {
    deviceId: `e2e-${randomUUID()}`,
    deviceName: `${browser} on ${os}`,
    browser,
    os,
    deviceType: detectDeviceType(ua),
  };
  const result = await page.evaluate(
    async ({ query, email, password, deviceData, keys }) => {
      localStorage.setItem(keys.deviceId, deviceData.deviceId);
      const send = async (deviceApproved: boolean) => {
        const res = await fetch('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables: { input: { email, password, deviceApproved, deviceData } } }),
        });
        return (await res.json()) as { data?: LoginMutation; errors?: { message: string }[] };
      };
      let answer = await send(false);
      if (answer.data?.login.requiresDeviceApproval) answer = await send(true);
      const login = answer.data?.login;
      if (!login?.success || !login.token) return answer.errors?.[0]?.message ?? login?.message ?? 'no token';
      localStorage.setItem(keys.token, login.token);
      localStorage.setItem(keys.user, JSON.stringify(login.user));
      if (login.deviceSession) localStorage.setItem(keys.deviceSession, JSON.stringify(login.deviceSession));
      if (login.warnings.length) sessionStorage.setItem(keys.warnings, JSON.stringify(login.warnings));
      return null;
    },
    { query: LOGIN, email, password, deviceData, keys: { ...SESSION_KEYS, deviceId: DEVICE_ID_KEY } },
  );
  if (result !== null) throw new Error(`sign-in of ${email} failed: ${result}`);
  await page.goto(landing);
  if (landing === '/') await page.getByRole('heading', { name: 'My Audio Library' }).waitFor();
}

/**
 * The library's grid of every file ("All audio files"). The shelves above it ("Recently added",
 * "Continue listening"...) may show the same cards, so a card is looked up in here.
 */
export const libraryGrid = (page: Page) => page.getByRole('region', { name: 'All audio files' });
