/**
 * The repository's one-way layering, held on every import (value and type alike): the generator
 * imports no runtime code; the toolkit's runtime libraries import neither generated code nor a
 * service; generated code imports only other generated code and the runtime's entries; the
 * services do not import each other. And no value-import cycles anywhere.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles, valueImportCycles } from '../support/import-graph.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOOLKIT_RUNTIME = ['runtime/entries', 'runtime/rest', 'runtime/rpc', 'runtime/client', 'runtime/util'];

/** `file:line → target` for every import of a file under `from` into a folder `forbidden` names. */
function backEdges(from: readonly string[], forbidden: (target: string) => boolean): string[] {
  return sourceFiles(ROOT, from).flatMap((file) =>
    importsOf(ROOT, file)
      .filter((edge) => forbidden(edge.to))
      .map((edge) => `${file}:${edge.line} → ${edge.to}`),
  );
}

const under =
  (...dirs: string[]) =>
  (path: string) =>
    dirs.some((dir) => path.startsWith(`${dir}/`));

describe('layering', () => {
  it('the generator imports no runtime, generated, test or bench code', () => {
    expect(backEdges(['generator'], under('runtime', 'generated', 'test', 'bench'))).toEqual([]);
  });

  it("the toolkit's runtime libraries import no generated code, no service and no generator code", () => {
    expect(backEdges(TOOLKIT_RUNTIME, under('generated', 'generator', 'runtime/issues', 'runtime/system', 'runtime/server'))).toEqual([]);
  });

  it("generated code imports only generated code and the runtime's entries", () => {
    expect(backEdges(['generated'], (to) => !under('generated', 'runtime/entries')(to))).toEqual([]);
  });

  it('runtime/util, shared by every runtime room, imports nothing outside itself', () => {
    expect(backEdges(['runtime/util'], (to) => !under('runtime/util')(to))).toEqual([]);
  });

  it('the services do not import each other', () => {
    expect(backEdges(['runtime/issues'], under('runtime/system'))).toEqual([]);
    expect(backEdges(['runtime/system'], under('runtime/issues'))).toEqual([]);
  });

  it('has no import cycles through value imports', () => {
    const cycles = valueImportCycles(ROOT, sourceFiles(ROOT, ['generator', 'runtime', 'generated', 'bench', 'test/support']));
    expect(cycles.map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('finds a back-edge when there is one (the check itself)', () => {
    // runtime/server is the composition root: it imports both services, which the rules above allow.
    expect(backEdges(['runtime/server'], under('runtime/issues')).length).toBeGreaterThan(0);
  });
});
