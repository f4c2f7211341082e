/**
 * Headless Chromium from Debian's package, driven by playwright-core, against a real server (real store,
 * real render pool) on an ephemeral port in a temp data dir. Everything is torn down with the test.
 * With SHOTS_DIR set, `shot` saves each page at 1280 and 390 px wide for people to look at.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import { silentLogger } from '../../src/log.ts';
import { startServer, type ServerHandle } from '../../src/server.ts';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** `env` adds settings, e.g. TUNESMITH_WEBHOOK_ALLOW_PRIVATE for a receiver on this machine. */
export async function startRealServer(
  t: ExecutionContext,
  env: Record<string, string> = {},
): Promise<ServerHandle & { dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-browser-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const server = await startServer(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', TUNESMITH_DATA_DIR: dataDir, TUNESMITH_WORKERS: '1', ...env }),
    { logger: silentLogger(), print: () => undefined },
  );
  t.teardown(() => server.close());
  return Object.assign(server, { dataDir });
}

export async function openBrowser(t: ExecutionContext): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  t.teardown(() => browser.close());
  return browser;
}

export async function newPage(browser: Browser, t: ExecutionContext): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  // Any script error or CSP violation on a page fails the test.
  page.on('pageerror', (error) => t.fail(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/.test(message.text()))
      t.fail(`console: ${message.text()}`);
  });
  return page;
}

export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
