/**
 * `/docs` in a real browser: headless Chromium (Debian's `chromium` package) driven by
 * playwright-core loads the page from the running server, every operation of both
 * generated documents is listed, and "Try it out" calls made from the page succeed.
 */
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemServiceDescriptor } from '../../generated/system/v1alpha1/system.codec.js';
import { CHROMIUM, requireChromium } from '../support/chromium.js';
import { type ServerProcess, startServerProcess } from '../support/server-harness.js';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  requireChromium();
  server = await startServerProcess({ env: { LOOM_DEMO: '1' } });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  if (server !== undefined) expect((await server.stop()).code).toBe(0);
});

/** `METHOD /path` of every operation in a document, sorted. */
async function operationsOf(id: string): Promise<string[]> {
  const doc = (await (await fetch(`${server.origin}/docs/openapi/${id}.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const ops: string[] = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of Object.keys(item)) if (HTTP_METHODS.includes(method)) ops.push(`${method.toUpperCase()} ${path}`);
  return ops.sort();
}

/** `METHOD /path` of every operation the page shows, sorted; an operation with two tags is shown twice but counted once. */
async function operationsOnPage(page: Page): Promise<string[]> {
  await page.locator('.opblock').first().waitFor();
  const ops = await page.$$eval('.opblock', (blocks) =>
    blocks.map((block) => {
      const method = block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '?';
      const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '?';
      return `${method.toUpperCase()} ${path}`;
    }),
  );
  return [...new Set(ops)].sort();
}

async function open(api: string): Promise<Page> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.origin}/docs?api=${api}`);
  await page.locator('.opblock').first().waitFor();
  expect(errors).toEqual([]);
  return page;
}

describe('/docs in Chromium', () => {
  it('lists every operation of the Issues API', async () => {
    const page = await open('issues');
    const expected = await operationsOf('issues');
    expect(expected).toContain('GET /repos/issues/search');
    expect(await operationsOnPage(page)).toEqual(expected);
    await page.close();
  });

  it('lists every Connect route of the System service', async () => {
    const page = await open('system');
    const expected = await operationsOf('system');
    // Every RPC the service has, from its generated descriptor: the list grows with the schema.
    expect(expected).toEqual(
      Object.values(SystemServiceDescriptor.methods)
        .map((m) => `POST ${m.path}`)
        .sort(),
    );
    expect(await operationsOnPage(page)).toEqual(expected);
    await page.close();
  });

  it('"Try it out" on the issue search calls the running server and shows its answer', async () => {
    const page = await open('issues');
    const block = page.locator('.opblock', { has: page.locator('.opblock-summary-path[data-path="/repos/issues/search"]') });
    await block.locator('.opblock-summary').click();
    await block.locator('button.execute').click();
    const status = block.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    const url = await block.locator('.request-url pre').first().textContent();
    expect(url?.startsWith(`${server.origin}/api/v1/repos/issues/search`)).toBe(true);
    const body = await block.locator('.live-responses-table .response-col_description pre').first().textContent();
    expect(Array.isArray(JSON.parse(body ?? 'null'))).toBe(true);
    await page.close();
  });

  it('"Authorize" takes the credentials the document declares, and "Try it out" on a write sends them', async () => {
    const page = await open('issues');
    // The document's securitySchemes give the page its Authorize button; basic auth as a demo user.
    await page.locator('.btn.authorize').first().click();
    const basic = page.locator('.auth-container', { hasText: 'BasicAuth' });
    await basic.locator('input').nth(0).fill('alice');
    await basic.locator('input[type="password"]').fill('alice-demo-password');
    await basic.locator('button.authorize').click();
    await page.locator('.auth-btn-wrapper button.btn-done').first().click();
    // Listed under each of its tags: the first will do.
    const block = page
      .locator('.opblock.opblock-post', { has: page.locator('.opblock-summary-path[data-path="/repos/{owner}/{repo}/issues"]') })
      .first();
    await block.locator('.opblock-summary').click();
    // The page opens operations ready to try; click "Try it out" only where it is not.
    const tryOut = block.locator('button.try-out__btn', { hasText: 'Try it out' });
    if ((await tryOut.count()) > 0) await tryOut.first().click();
    await block.locator('tr[data-param-name="owner"] input').fill('alice');
    await block.locator('tr[data-param-name="repo"] input').fill('proj');
    await block.locator('textarea.body-param__text').fill(JSON.stringify({ title: 'Filed from /docs' }));
    await block.locator('button.execute').click();
    const status = block.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('201');
    const body = await block.locator('.live-responses-table .response-col_description pre').first().textContent();
    expect(JSON.parse(body ?? 'null')).toMatchObject({ title: 'Filed from /docs', user: { login: 'alice' } });
    await page.close();
  });

  it('"Try it out" on GetBIOSSerialNumber calls the Connect route from the page', async () => {
    const page = await open('system');
    const block = page.locator('.opblock', {
      has: page.locator('.opblock-summary-path[data-path="/v1alpha1.System/GetBIOSSerialNumber"]'),
    });
    await block.locator('.opblock-summary').click();
    const editor = block.locator('textarea.body-param__text');
    if ((await editor.count()) > 0) await editor.fill('{}');
    await block.locator('button.execute').click();
    const status = block.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    const body = await block.locator('.live-responses-table .response-col_description pre').first().textContent();
    expect(JSON.parse(body ?? 'null')).toEqual({ serialNumber: 'SIM-0001' });
    await page.close();
  });
});
