/**
 * @module
 * Every `.proto` of the npm package `google-proto-files` (Google APIs, Cloud, protobuf's own
 * test protos: thousands of files, editions, proto2, custom options) loads in one call with
 * the package folder as import path. The three files protoc itself would reject together are
 * checked on their own.
 */
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSchemas, SchemaError } from '../../generator/loaders/index.js';
import type { SchemaFile } from '../../generator/model/model.js';

const PACKAGE = dirname(createRequire(import.meta.url).resolve('google-proto-files/package.json'));
const GOOGLE = join(PACKAGE, 'google');

/**
 * Files that cannot share one load: two ruby test protos redeclare a package another test
 * proto declares, and one imports `unittest.proto`, which the package does not ship.
 */
const ALONE = [
  'google/protobuf/compiler/ruby/ruby_generated_code_proto2.proto',
  'google/protobuf/compiler/ruby/ruby_generated_pkg_implicit.proto',
];
const MISSING_IMPORT = 'google/protobuf/util/json_format_proto3.proto';

async function protoFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.proto')) out.push(join(entry.parentPath, entry.name));
  }
  return out.sort();
}

let all: string[];
let files: SchemaFile[];

beforeAll(async () => {
  all = await protoFiles(GOOGLE);
  const together = all.filter((f) => {
    const rel = relative(PACKAGE, f);
    return !ALONE.includes(rel) && rel !== MISSING_IMPORT;
  });
  files = await loadSchemas(together, { root: PACKAGE, importPaths: [PACKAGE] });
}, 300_000);

describe('google-proto-files', () => {
  it('loads every file into one SchemaFile, sorted by path', () => {
    expect(all.length).toBeGreaterThan(1000);
    expect(files).toHaveLength(all.length - ALONE.length - 1);
    const paths = files.map((f) => f.path);
    expect(paths).toEqual([...paths].sort());
    expect(paths).toContain('google/api/annotations.proto');
  });

  it('resolves cross-file references to the declaring file', () => {
    const status = files.find((f) => f.path === 'google/rpc/status.proto')!;
    const message = status.types.find((t) => t.name === 'Status');
    const details = message?.kind === 'message' ? message.fields.find((f) => f.name === 'details') : undefined;
    expect(
      details?.type.kind === 'array' &&
        details.type.items.kind === 'ref' && [details.type.items.target.fullName, details.type.items.target.parent.path],
    ).toEqual(['google.protobuf.Any', 'google/protobuf/any.proto']);
  });

  it('loads services with their rpcs and comments', () => {
    const operations = files.find((f) => f.path === 'google/longrunning/operations.proto')!;
    const service = operations.services.find((s) => s.name === 'Operations')!;
    expect(service.fullName).toBe('google.longrunning.Operations');
    expect(service.operations.map((o) => o.localName)).toEqual([
      'listOperations',
      'getOperation',
      'deleteOperation',
      'cancelOperation',
      'waitOperation',
    ]);
    expect(service.operations[1]!.doc).toMatch(/^Gets the latest state of a long-running operation\./);
  });

  it('loads the files that must be alone one by one', async () => {
    for (const rel of ALONE) {
      const [file] = await loadSchemas([join(PACKAGE, rel)], { root: PACKAGE, importPaths: [PACKAGE] });
      expect(file!.path).toBe(rel);
      expect(file!.types.length).toBeGreaterThan(0);
    }
  });

  it('reports the import the package does not ship', async () => {
    const error = await loadSchemas([join(PACKAGE, MISSING_IMPORT)], { root: PACKAGE, importPaths: [PACKAGE] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).diagnostics.map((d) => [d.source.file, d.source.line, d.message])).toEqual([
      [
        MISSING_IMPORT,
        20,
        'cannot find import "google/protobuf/unittest.proto": looked next to the file, in the import paths (.) and the root; ' +
          'add the folder that holds it as an import path (-I)',
      ],
    ]);
  });
});
