import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, rest, type ApiSession } from './support/api';
import { launchBrowser, newDevice, screenshot } from './support/browser';
import { signInThroughUi } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Signs in from a named phone through the API: the "other device" the page lists. */
async function signInFromPhone(email: string, password: string, deviceName: string): Promise<ApiSession> {
  const deviceId = `e2e-phone-${randomUUID()}`;
  const deviceData = { deviceId, deviceName, deviceType: 'Mobile' };
  const res = await rest<{ token?: string }>('POST', '/auth/login', {
    email,
    password,
    deviceData,
    deviceApproved: true,
  });
  if (!res.body.token) throw new Error(`phone sign-in failed: ${JSON.stringify(res.body)}`);
  return { token: res.body.token, deviceId };
}

describe('device security', () => {
  // Administrators are exempt from the single-device lock, so one account can hold two devices.
  it('deactivates another device after confirmation; that device is signed out at once', async () => {
    const admin = await createAdmin();
    const phone = await signInFromPhone(admin.email, admin.password, 'Pixel Phone');
    const { page, context } = await newDevice(browser);
    await signInThroughUi(page, admin.email, admin.password);
    await page.getByRole('button', { name: 'Device Security' }).click();
    await page.getByRole('heading', { name: 'Device Security', level: 1 }).waitFor();

    const phoneCard = page.getByRole('article', { name: 'Pixel Phone' });
    await phoneCard.waitFor();
    expect(await page.getByText('Current Device').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Deactivate All Other Devices' }).isEnabled()).toBe(true);
    expect(await page.getByText('Security Tips').isVisible()).toBe(true);
    await screenshot(page, 'devices-two');

    await phoneCard.getByRole('button', { name: 'Deactivate Pixel Phone' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate Device' });
    await dialog.getByText(/Are you sure you want to deactivate Pixel Phone \(ID …\S{4}\)\?/).waitFor();
    // Cancel keeps it.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0);
    expect(await phoneCard.isVisible()).toBe(true);

    await phoneCard.getByRole('button', { name: 'Deactivate Pixel Phone' }).click();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('Device deactivated successfully').waitFor();
    await expect.poll(() => phoneCard.count(), { timeout: 10_000 }).toBe(0);
    expect(await page.getByRole('button', { name: 'Deactivate All Other Devices' }).isDisabled()).toBe(true);
    await screenshot(page, 'devices-after-deactivate');

    const me = await rest('GET', '/auth/me', undefined, phone);
    expect(me.status).toBe(401);
    await context.close();
  });

  it('deactivates all other devices and reports how many', async () => {
    const admin = await createAdmin();
    const phones = [
      await signInFromPhone(admin.email, admin.password, 'Old Phone'),
      await signInFromPhone(admin.email, admin.password, 'Spare Phone'),
    ];
    const { page, context } = await newDevice(browser);
    await signInThroughUi(page, admin.email, admin.password);
    await page.goto('/devices');
    await page.getByRole('article', { name: 'Spare Phone' }).waitFor();
    await page.getByRole('button', { name: 'Deactivate All Other Devices' }).click();
    await page
      .getByRole('dialog', { name: 'Deactivate All Other Devices' })
      .getByRole('button', { name: 'Deactivate' })
      .click();
    await page.getByText('Successfully deactivated 2 device(s)').waitFor();
    for (const phone of phones) expect((await rest('GET', '/auth/me', undefined, phone)).status).toBe(401);
    await context.close();
  });

  it('tells apart devices with the same name and lists the current one first, here and for administrators', async () => {
    const admin = await createAdmin();
    const { page, context } = await newDevice(browser);
    await signInThroughUi(page, admin.email, admin.password);
    const ownId = await page.evaluate(() => localStorage.getItem('deviceId') ?? '');
    // Two more browsers of the same kind as the one the test drives (headless Chromium on Linux),
    // signed in later: the server lists them first (most recent activity first).
    const twins = [
      await signInFromPhone(admin.email, admin.password, 'Chrome on Linux'),
      await signInFromPhone(admin.email, admin.password, 'Chrome on Linux'),
    ];
    const label = (deviceId: string) => `Chrome on Linux (ID …${deviceId.slice(-4)})`;

    await page.goto('/devices');
    const cards = page.getByRole('article');
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(3);
    const names = await cards.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    // The current device is listed first, though the others were active more recently.
    expect(names[0]).toBe(label(ownId));
    expect(await cards.first().getByText('Current Device').isVisible()).toBe(true);
    expect(new Set(names)).toEqual(new Set([label(ownId), ...twins.map((t) => label(t.deviceId))]));
    await screenshot(page, 'devices-same-name');

    await page.goto(`/admin/users/edit/${admin.id}`);
    const table = page.getByRole('table', { name: 'Active Sessions' });
    await table.waitFor();
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 10_000 }).toBe(3);
    const firstRow = table.locator('tbody tr').first();
    expect(await firstRow.getByText(label(ownId)).isVisible()).toBe(true);
    expect(await firstRow.getByText('Current Device').isVisible()).toBe(true);
    for (const twin of twins) {
      expect(await table.getByRole('button', { name: `Terminate ${label(twin.deviceId)}` }).count()).toBe(1);
    }
    await context.close();
  });
});
