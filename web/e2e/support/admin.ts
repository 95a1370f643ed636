import type { Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './constants';
import { signIn } from './ui';

/** Signs the page in as the seeded administrator and opens `landing` (ui.ts, signIn). */
export function signInAsAdmin(page: Page, landing = '/'): Promise<void> {
  return signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, landing);
}
