import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chooseChromium } from './browser.js';

/**
 * The browser tests must run on a machine where nobody installed a browser by hand: without Debian's
 * Chromium they drive the one inside the @sparticuz/chromium package. This launches that one for real.
 */
describe('the Chromium the browser tests drive', () => {
  it('is the npm-shipped one when forced, and it renders a page with the flags we give it', async () => {
    const choice = await chooseChromium({ E2E_BROWSER: 'bundled' });
    expect(choice.source).toBe('bundled');
    // The package's own --disable-web-security / --single-process would change what the tests see.
    expect(choice.args).not.toContain('--disable-web-security');
    expect(choice.args).not.toContain('--single-process');
    const browser = await chromium.launch({ executablePath: choice.executablePath, args: choice.args });
    try {
      const page = await browser.newPage();
      await page.setContent('<main><h1>Tutoring Portal</h1><button>Sign in</button></main>');
      await page.getByRole('button', { name: 'Sign in' }).focus();
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Sign in');
      expect(await page.textContent('h1')).toBe('Tutoring Portal');
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('takes CHROMIUM_PATH when it is an executable, and refuses one that is not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chromium-path-'));
    const fake = join(dir, 'chromium');
    writeFileSync(fake, '#!/bin/sh\n');
    chmodSync(fake, 0o755);
    await expect(chooseChromium({ CHROMIUM_PATH: fake })).resolves.toMatchObject({
      source: 'CHROMIUM_PATH',
      executablePath: fake,
    });
    await expect(chooseChromium({ CHROMIUM_PATH: join(dir, 'missing') })).rejects.toThrow(
      /is not an executable file/,
    );
    await expect(chooseChromium({ E2E_BROWSER: 'firefox' })).rejects.toThrow(/E2E_BROWSER/);
  });
});
