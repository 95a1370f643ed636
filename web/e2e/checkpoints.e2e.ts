import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './support/api';
import { launchBrowser, newDevice, screenshot } from './support/browser';
import { grantAccess, uploadAudio } from './support/media';
import { signIn } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function shownSeconds(page: Page): Promise<number> {
  const text = (await page.getByRole('timer', { name: 'Playback time' }).textContent()) ?? '';
  const [minutes, seconds] = text.split('/')[0].trim().split(':').map(Number);
  return minutes * 60 + seconds;
}

describe('checkpoints', () => {
  it('adds a checkpoint at 0 and one at the current position, jumps to one and deletes one', async () => {
    const user = await createUser();
    const file = await uploadAudio(`Checkpoint tone ${Date.now()}`, { seconds: 90 });
    await grantAccess(user.id, file.id);
    const { page, context } = await newDevice(browser);
    await signIn(page, user.email, user.password, `/player/${file.id}`);
    await page.getByText('Ready', { exact: true }).waitFor();
    await page.getByText('No checkpoints yet').waitFor();

    // Name is required: Save stays disabled until it is filled in.
    await page.getByRole('button', { name: 'Add Checkpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Checkpoint' });
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('   ');
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('Start here');
    await dialog.getByLabel('Description').fill('The very beginning');
    await screenshot(page, 'checkpoint-add-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Jump to Start here' }).waitFor();
    expect(await page.getByText('Start here (0:00)').isVisible()).toBe(true);

    // A second one where the player is now.
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => shownSeconds(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: 'Pause' }).click();
    const at = await shownSeconds(page);
    await page.getByRole('button', { name: 'Add Checkpoint' }).click();
    await dialog.getByLabel('Name').fill('Later');
    await dialog.getByRole('checkbox', { name: /At current position/ }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`Later (0:${String(at).padStart(2, '0')})`).waitFor();

    // Jumping goes back to the checkpoint's time.
    await page.getByRole('button', { name: 'Jump to Start here' }).click();
    await expect.poll(() => shownSeconds(page), { timeout: 10_000 }).toBeLessThan(at);
    await screenshot(page, 'checkpoints-list');

    await page.getByRole('button', { name: 'Delete Later' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Checkpoint' });
    await confirm.getByText('Are you sure you want to delete this checkpoint?').waitFor();
    await screenshot(page, 'checkpoint-delete-confirm');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Jump to Later' }).count(), { timeout: 10_000 }).toBe(0);

    // The server kept the deletion: after a reload only the first checkpoint is listed.
    await page.reload();
    await page.getByRole('button', { name: 'Jump to Start here' }).waitFor();
    expect(await page.getByRole('button', { name: 'Jump to Later' }).count()).toBe(0);
    await context.close();
  });
});
