import { describe, expect, it } from 'vitest';
import { giteaPath, giteaRequestPath } from './request-path.js';

describe('giteaPath', () => {
  it('keeps clean paths as they are', () => {
    expect(giteaPath('/api/v1/repos/o/r/issues')).toBe('/api/v1/repos/o/r/issues');
    expect(giteaPath('/')).toBe('/');
  });

  it("drops trailing slashes and collapses runs of slashes, as Gitea's stripSlashesMiddleware", () => {
    expect(giteaPath('/api/v1/repos/o/r/issues/')).toBe('/api/v1/repos/o/r/issues');
    expect(giteaPath('/api/v1/repos/o/r/issues///')).toBe('/api/v1/repos/o/r/issues');
    expect(giteaPath('//api/v1//repos///o/r')).toBe('/api/v1/repos/o/r');
    expect(giteaPath('//')).toBe('/');
  });

  it('reads the path of a request, percent-decoded as Hono reads it', () => {
    expect(giteaRequestPath(new Request('http://h/api/v1/repos/o/caf%C3%A9/issues/?q=a//b'))).toBe('/api/v1/repos/o/café/issues');
  });
});
