import { accessSync, constants } from 'node:fs';

/**
 * Which Chromium the browser tests drive, so that `npm test` needs nothing installed by hand:
 *
 * 1. `CHROMIUM_PATH`, when set (it must exist: a wrong path is an error, not a silent fallback);
 * 2. Debian's `/usr/bin/chromium`, when installed (what `.ci/run` installs);
 * 3. otherwise the Chromium shipped inside the `@sparticuz/chromium` npm package (unpacked to the OS
 *    temp directory at first use, ~10 s).
 *
 * `E2E_BROWSER=bundled` forces the third, to check it on a machine that has Debian's Chromium.
 */
export interface ChromiumChoice {
  source: 'CHROMIUM_PATH' | 'debian' | 'bundled';
  executablePath: string;
  args: string[];
}

/** The flags every choice gets: headless, no sandbox (root in CI), and no traffic to Google's hosts. */
const COMMON_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Of the package's own flags, only those its build needs to start and draw without a GPU or a zygote.
 * Its others (`--single-process`, `--disable-web-security`, ...) would change what the tests see: the
 * portal's Content-Security-Policy and same-origin rules must hold as in a real browser.
 */
const BUNDLED_ARGS = [
  '--headless=shell',
  '--no-zygote',
  '--disable-setuid-sandbox',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--font-render-hinting=none',
];

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export async function chooseChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumChoice> {
  const forced = env.E2E_BROWSER;
  if (forced !== undefined && forced !== 'bundled' && forced !== 'auto') {
    throw new Error(`E2E_BROWSER must be "bundled" or "auto", not "${forced}"`);
  }
  if (forced !== 'bundled') {
    if (env.CHROMIUM_PATH) {
      if (!executable(env.CHROMIUM_PATH)) {
        throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file`);
      }
      return { source: 'CHROMIUM_PATH', executablePath: env.CHROMIUM_PATH, args: COMMON_ARGS };
    }
    if (executable(DEBIAN_CHROMIUM)) {
      return { source: 'debian', executablePath: DEBIAN_CHROMIUM, args: COMMON_ARGS };
    }
  }
  const { default: bundled } = await import('@sparticuz/chromium');
  const executablePath = await bundled.executablePath();
  const args = [...COMMON_ARGS.filter((a) => a !== '--headless'), ...BUNDLED_ARGS];
  return { source: 'bundled', executablePath, args };
}
