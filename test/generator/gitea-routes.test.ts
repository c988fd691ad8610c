/**
 * Gitea's generated routes classes register on the decorator runtime: its path variables are
 * named as Gitea names them (`{user-id}` in the ActivityPub routes), which the runtime accepts,
 * and a request reaches the handler with the variable under its camelCase name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestRouter } from '../../runtime/rest/index.js';
import { generateInline } from '../support/generate-inline.js';

let cleanup: () => void;
let server: Record<string, new (api: object) => object>;

beforeAll(async () => {
  const generated = await generateInline('gitea-routes', {
    'gitea.json': readFileSync(new URL('../fixtures/reference/gitea-swagger-v1.25.3.json', import.meta.url), 'utf8'),
  });
  cleanup = generated.cleanup;
  server = await import(/* @vite-ignore */ join(generated.dir, 'gitea.server.ts'));
}, 120_000);

afterAll(() => cleanup?.());

describe("Gitea's routes classes", () => {
  it("ActivitypubRoutes registers with its '{user-id}' path variable and passes it on", async () => {
    const seen: unknown[] = [];
    const handler = new Proxy({}, { get: (_target, name) => async (input: unknown) => void seen.push([name, input]) });
    const app = createRestRouter().register(new server.ActivitypubRoutes!(handler)).app();
    const response = await app.request('/api/v1/activitypub/user-id/42');
    expect(response.status).toBeLessThan(300);
    expect(seen).toEqual([['activitypubPerson', { userId: 42 }]]);
  });
});
