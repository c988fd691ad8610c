/**
 * The public entries that must run outside Node, bundled as a browser build would bundle them
 * (esbuild, `platform: 'browser'`): the Connect client side (`loom/connect`) and the HTTP client
 * reach no `node:` module, no protobufjs and no `@grpc/grpc-js`; the Connect server
 * (`loom/connect/server`) reaches no `node:` module and no `@grpc/grpc-js` (protobufjs it may:
 * it serves binary too).
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/generate-inline.js';

/** Every module a browser bundle of `entry` takes in, and every import it leaves outside. */
async function bundleInputs(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(REPO_ROOT, entry)],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    metafile: true,
    write: false,
    logLevel: 'silent',
    // Left outside rather than failing the build, so that the assertion names them.
    external: ['node:*'],
  });
  const outside = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
  return [...Object.keys(result.metafile.inputs), ...outside];
}

const NODE = /^node:/;
const PROTOBUFJS = /(^|\/)node_modules\/protobufjs\//;
const GRPC = /(^|\/)node_modules\/@grpc\/grpc-js\//;

describe('browser-safe entries', () => {
  it('loom/connect (the Connect client, codecs, RPC types): no node: module, no protobufjs, no grpc-js', async () => {
    const inputs = await bundleInputs('runtime/entries/connect.ts');
    expect(inputs.filter((path) => NODE.test(path) || PROTOBUFJS.test(path) || GRPC.test(path))).toEqual([]);
    // The bundle holds what it is for: the JSON codec and the client.
    expect(inputs).toEqual(expect.arrayContaining(['runtime/rpc/codec.ts', 'runtime/rpc/proto-json.ts', 'runtime/rpc/connect-client.ts']));
  });

  it('the HTTP client (runtime/client): no node: module, no protobufjs, no grpc-js', async () => {
    const inputs = await bundleInputs('runtime/client/index.ts');
    expect(inputs.filter((path) => NODE.test(path) || PROTOBUFJS.test(path) || GRPC.test(path))).toEqual([]);
    expect(inputs).toContain('runtime/client/http-client.ts');
  });

  it('loom/connect/server (Connect on Hono): no node: module, no grpc-js', async () => {
    const inputs = await bundleInputs('runtime/entries/connect/server.ts');
    expect(inputs.filter((path) => NODE.test(path) || GRPC.test(path))).toEqual([]);
    expect(inputs).toEqual(expect.arrayContaining(['runtime/rpc/connect-server.ts', 'runtime/rpc/connect-compression.ts']));
  });
});
