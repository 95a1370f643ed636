import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { createUser } from './support/api';
import { baseUrl, launchBrowser, newDevice, screenshot } from './support/browser';
import { grantAccess, uploadAudio } from './support/media';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const visible = (page: Page, text: string | RegExp) => () => page.getByText(text).first().isVisible();

/** Console messages and page errors about the content security policy. */
function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(m.text());
  });
  page.on('pageerror', (e) => {
    if (/Content Security Policy|Refused to/i.test(e.message)) seen.push(e.message);
  });
  return seen;
}

describe('admin: API keys and the GraphQL explorer', () => {
  it('creates a key with scope checkboxes, shows its secret once, and revokes it', async () => {
    const user = await createUser('Key Owner');
    const book = await uploadAudio('Key Owner Book', { seconds: 5 });
    await grantAccess(user.id, book.id);
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, '/admin');
    await page.getByRole('button', { name: 'API Keys' }).click();
    await page.getByRole('heading', { name: 'API Keys' }).waitFor();
    await page.getByLabel('Key name').fill('nightly sync');
    await page.getByLabel('Acts for user').fill(user.email);
    await page.getByRole('option', { name: user.email }).click();
    // A listener's key cannot have an administrator's scopes.
    expect(await page.getByRole('checkbox', { name: 'users:write' }).isDisabled()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'library:read' }).isChecked()).toBe(true);
    // A listener's key may stream: the audio of the files its user may see.
    const stream = page.getByRole('checkbox', { name: 'stream' });
    expect(await stream.isDisabled()).toBe(false);
    await stream.check();
    await page.getByRole('button', { name: 'Create Key' }).click();
    const secret = page.getByTestId('api-key-secret');
    await secret.waitFor();
    const token = (await secret.textContent()) ?? '';
    expect(token).toMatch(/^pal_/);
    await screenshot(page, 'admin-api-keys');

    const library = await fetch(`${baseUrl()}/api/v1/files`, { headers: { authorization: `Bearer ${token}` } });
    expect(library.status).toBe(200);
    const audioUrl = `${baseUrl()}/api/v1/files/${book.id}/audio`;
    const audio = await fetch(audioUrl, { headers: { authorization: `Bearer ${token}`, range: 'bytes=0-99' } });
    expect(audio.status).toBe(206);
    expect((await audio.arrayBuffer()).byteLength).toBe(100);

    const row = page.getByRole('row').filter({ hasText: 'nightly sync' });
    await row.getByRole('button', { name: 'Revoke nightly sync' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.getByText('revoked').isVisible(), { timeout: 5000 }).toBe(true);
    const after = await fetch(`${baseUrl()}/api/v1/files`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    expect((await fetch(audioUrl, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    await context.close();
  });

  it('loads GraphiQL under the app’s content security policy and runs a query', async () => {
    const { page, context } = await newDevice(browser);
    const violations = cspViolations(page);
    await signInAsAdmin(page, '/admin');
    await page.getByRole('button', { name: 'GraphQL Explorer' }).click();
    await page.getByRole('heading', { name: 'GraphQL Explorer' }).waitFor();
    const run = page.getByRole('button', { name: /Execute query/i });
    await run.waitFor({ timeout: 30_000 });
    // The default query asks for the signed-in administrator's email. The editors load after the
    // button; a click before they hold the query runs nothing, so click until the answer shows.
    await expect
      .poll(async () => (await visible(page, '"email"')()) || (await run.click(), false), {
        timeout: 30_000,
        interval: 2_000,
      })
      .toBe(true);
    await screenshot(page, 'admin-graphql-explorer');
    expect(violations).toEqual([]);
    await context.close();
  });
});
