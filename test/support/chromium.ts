/**
 * @module
 * Where the browser tests find Chromium: Debian's `/usr/bin/chromium`, or the binary named in
 * `CHROMIUM_PATH`. Without it they fail, naming what to install, and never skip: CI installs it
 * (`.ci/run`), and anyone else reads the command in the failure.
 */
import { existsSync } from 'node:fs';

/** The Chromium binary the browser tests launch through playwright-core. */
export const CHROMIUM: string = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Throws, with the install command, when `path` does not exist; call it first in a browser test's `beforeAll`.
 *
 * @example
 * beforeAll(async () => {
 *   requireChromium();
 *   browser = await chromium.launch({ executablePath: CHROMIUM });
 * });
 */
export function requireChromium(path: string = CHROMIUM): void {
  if (!existsSync(path)) {
    throw new Error(
      `${path} not found: the browser tests need Chromium. Install Debian's with ` +
        '`apt-get install -y chromium` (as .ci/run does), or name another binary in CHROMIUM_PATH',
    );
  }
}
