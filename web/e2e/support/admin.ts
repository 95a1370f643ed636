import type { Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './constants';
import { signInThroughUi } from './ui';

export function signInAsAdmin(page: Page): Promise<void> {
  return signInThroughUi(page, ADMIN_EMAIL, ADMIN_PASSWORD);
}
