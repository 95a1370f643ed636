import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createUser } from './support/api';
import { launchBrowser, newDevice } from './support/browser';
import { signIn } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const path = (url: string) => new URL(url).pathname;

describe('route guards', () => {
  it('sends signed-out visitors to /login for every signed-in route', async () => {
    const { page, context } = await newDevice(browser);
    for (const route of ['/', '/profile', '/devices', '/player/some-id', '/admin', '/admin/users']) {
      await page.goto(route);
      await page.waitForURL('**/login');
      // The address changes a moment before the sign-in screen is drawn: wait for the screen.
      await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
    }
    await context.close();
  });

  it('returns to the remembered admin page after signing in, and unknown paths go to the library', async () => {
    const admin = await createAdmin();
    const { page, context } = await newDevice(browser);
    await page.goto('/admin/users');
    await page.waitForURL('**/login');
    await page.getByLabel('Email Address').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'I Understand - Proceed' }).click();
    await page.waitForURL('**/admin/users');
    // Let the reload that follows sign-in settle before navigating away from it.
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'My Audio Library' }).waitFor();
    expect(path(page.url())).toBe('/');
    await context.close();
  });

  it('keeps ordinary users out of admin screens', async () => {
    const user = await createUser();
    const { page, context } = await newDevice(browser);
    await signIn(page, user.email, user.password);
    for (const route of ['/admin', '/admin/users', '/admin/files/upload']) {
      await page.goto(route);
      await page.getByRole('heading', { name: 'My Audio Library' }).waitFor();
      expect(path(page.url())).toBe('/');
    }
    // Signed in, /login shows the unread device warning instead of the form; once it is
    // dismissed, the page sends them on.
    await page.goto('/login');
    await page.getByText('New Device Login').waitFor();
    expect(await page.getByLabel('Email Address').count()).toBe(0);
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('heading', { name: 'My Audio Library' }).waitFor();
    await page.goto('/login');
    await page.getByRole('heading', { name: 'My Audio Library' }).waitFor();
    await context.close();
  });

  it("shows the error page naming the failure and the script's address when a page's code cannot load", async () => {
    const user = await createUser();
    const { page, context } = await newDevice(browser);
    await signIn(page, user.email, user.password);
    await page.route('**/assets/DevicesPage-*.js', (route) => route.abort());
    await page.getByRole('button', { name: 'Device Security' }).click();
    await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
    const alert = await page.getByRole('alert').textContent();
    expect(alert).toMatch(/^Loading chunk failed \(missing: http:\/\/[^ ]+\/assets\/DevicesPage-[\w-]+\.js\)$/);
    await context.close();
  });
});
