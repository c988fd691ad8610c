/**
 * @module
 * The shared schema fixtures (test/fixtures/schemas) load, with only the warnings they
 * are meant to produce, so other tests can rely on them.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, loadSchemas } from '../../generator/loaders/index.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/schemas', import.meta.url));

describe('schema fixtures', () => {
  it('load together, sorted by path', async () => {
    // The two folders these fixtures live in; `real/` holds larger documents with tests of their own.
    const files = await loadSchemas([`${FIXTURES}/openapi`, `${FIXTURES}/proto`], { root: FIXTURES, importPaths: [`${FIXTURES}/proto`] });
    expect(files.map((f) => `${f.path} ${f.format} ${f.services.length} ${f.types.length}`)).toEqual([
      'openapi/common.yaml openapi-3.0 0 2',
      'openapi/legacy-swagger.yaml swagger-2.0 2 1',
      'openapi/nodes-3.1.yaml openapi-3.1 1 2',
      'openapi/pets.yaml openapi-3.0 2 12',
      'proto/common/money.proto proto3 0 1',
      'proto/legacy/legacy.proto proto2 0 2',
      'proto/shop/shop.proto proto3 2 6',
    ]);
    expect(files.flatMap((f) => f.warnings).map(formatDiagnostic)).toEqual([
      "proto/legacy/legacy.proto:14: warning: extension of 'Account' is ignored: extensions have no place in the generated types",
      "proto/legacy/legacy.proto:8: warning: group 'Account.Extra' is loaded as a nested message; groups are deprecated, " +
        'prefer a message field',
    ]);
  });
});
