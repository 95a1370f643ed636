import type { Page } from 'playwright-core';

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

/**
 * The library's grid of every file ("All audio files"). The shelves above it ("Recently added",
 * "Continue listening"...) may show the same cards, so a card is looked up in here.
 */
export const libraryGrid = (page: Page) => page.getByRole('region', { name: 'All audio files' });
