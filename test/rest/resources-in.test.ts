/**
 * @module
 * `resourcesIn` against xp-forge's `ResourcesIn`: every routes class exported by the modules of a
 * folder, registered in one call; helpers, values and base classes are left out. Over real HTTP.
 */
import { describe, expect, it } from 'vitest';
import { resourcesIn } from '../../runtime/entries/rest/node.js';
import { createRestRouter } from '../../runtime/rest/index.js';
import { listen, rawCall } from '../support/rest-answers.js';

const FOLDER = new URL('./fixtures/resources/', import.meta.url);

describe('resourcesIn', () => {
  it('finds the routes classes of a folder, in file-name order, not the helpers or the bases', async () => {
    expect((await resourcesIn(FOLDER)).map((c) => c.name)).toEqual(['Orders', 'Users']);
  });
  it('looks in subfolders when asked', async () => {
    expect((await resourcesIn(FOLDER, { recursive: true })).map((c) => c.name)).toEqual(['Deep', 'Orders', 'Users']);
  });
  it('registers them in one call; the router creates them', async () => {
    const server = await listen(
      createRestRouter()
        .register(...(await resourcesIn(FOLDER)))
        .app(),
    );
    try {
      expect((await rawCall(server.port, 'GET', '/users/7')).text).toBe('{"user":"7"}');
      expect((await rawCall(server.port, 'GET', '/orders')).text).toBe('["o-1"]');
    } finally {
      await server.close();
    }
  });
  it('a missing folder fails', async () => {
    await expect(resourcesIn(new URL('./fixtures/no-such-folder/', import.meta.url))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
