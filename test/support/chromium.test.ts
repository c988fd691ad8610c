/** A missing Chromium fails the browser tests with the command that installs it. */
import { describe, expect, it } from 'vitest';
import { requireChromium } from './chromium.js';

describe('requireChromium', () => {
  it('names the path and the install command when the binary is missing', () => {
    expect(() => requireChromium('/nonexistent/chromium')).toThrow(
      "/nonexistent/chromium not found: the browser tests need Chromium. Install Debian's with `apt-get install -y chromium`",
    );
  });

  it('lets the test go on when the binary is there', () => {
    expect(() => requireChromium(process.execPath)).not.toThrow();
  });
});
