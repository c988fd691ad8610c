import { beforeAll, describe, expect, it } from 'vitest';
import type { GeneratorCache, GeneratorOptions } from '../emit.js';
import { emit } from '../emit.js';
import { BUILTIN_EMITTERS } from '../emitters/index.js';
import { validatorsJob } from '../emitters/validators/validators.js';
import { loadSchemas, memoryFileSystem } from '../loaders/index.js';
import type { SchemaFile } from '../model/model.js';
import { loadTemplates } from '../templates.js';
import { compileValidatorsAhead, emitAll } from './emit-all.js';
import type { ValidatorsCompiler } from './validators-prefetch.js';

// Two named types, an inline request body (its own validator), and one keyword the loader
// warns about: the warning must come out exactly once.
const API = {
  swagger: '2.0',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      post: {
        operationId: 'createPet',
        tags: ['pets'],
        parameters: [{ name: 'body', in: 'body', required: true, schema: { type: 'object', properties: { name: { type: 'string' } } } }],
        responses: { '201': { description: 'made', schema: { $ref: '#/definitions/Pet' } } },
      },
    },
  },
  definitions: {
    Pet: {
      type: 'object',
      required: ['id'],
      properties: {
        nick: { type: 'string', not: { const: 'x' } },
        id: { type: 'integer', format: 'int64' },
        tag: { $ref: '#/definitions/Tag' },
      },
    },
    Tag: { type: 'string', enum: ['a', 'b'] },
  },
};

/** What a compile job's result looks like (see `compileStandalone`). */
const FROM_WORKER = JSON.stringify({ code: 'export const fromWorker = true;', externals: [] });

let files: SchemaFile[];
let options: GeneratorOptions;

beforeAll(async () => {
  files = await loadSchemas(['/schemas/pets.json'], {
    root: '/schemas',
    fileSystem: memoryFileSystem({ 'pets.json': JSON.stringify(API) }, '/schemas'),
  });
  options = { runtimeImport: 'loom', templates: loadTemplates() };
});

/** A cache that remembers what was stored in it. */
function memoryCache(): GeneratorCache & { stored: Map<string, string> } {
  const stored = new Map<string, string>();
  return { stored, get: (k) => stored.get(k), set: (k, v) => void stored.set(k, v) };
}

describe('emitAll', () => {
  it('without a compiler gives exactly what one emit() call with every emitter gives', async () => {
    const together = emit(files, BUILTIN_EMITTERS, options);
    const split = await emitAll(files, BUILTIN_EMITTERS, options);
    expect(split.files.map((f) => f.path)).toEqual(together.files.map((f) => f.path));
    expect(split.files).toEqual(together.files);
    expect(split.warnings).toEqual(together.warnings);
    expect(split.files.map((f) => f.path)).toContain('pets.validators.ts');
  });

  it('reports each loader warning once, though the emitters run in two passes', async () => {
    const result = await emitAll(files, BUILTIN_EMITTERS, options);
    expect(result.warnings.map((w) => w.message)).toEqual([files[0]!.warnings[0]!.message]);
    expect(result.warnings[0]!.message).toContain("keyword 'not' is ignored");
  });

  it('sends each compile job to the compiler, prints what it returns, and stores it in the cache', async () => {
    const job = validatorsJob(files[0]!)!;
    const sent: string[] = [];
    const compiler: ValidatorsCompiler = {
      compile: async (requests) => {
        sent.push(...requests.map((r) => r.key));
        return new Map([[job.key, FROM_WORKER]]);
      },
      close: () => {},
    };
    const cache = memoryCache();
    const result = await emitAll(files, BUILTIN_EMITTERS, { ...options, cache }, compileValidatorsAhead(files, cache, compiler));
    expect(sent).toEqual([job.key]);
    const js = result.files.find((f) => f.path === 'pets.validators.ts')!.content;
    expect(js.split('\n').slice(-2)).toEqual(['export const fromWorker = true;', '']);
    expect(cache.stored.get(job.key)).toBe(FROM_WORKER);
  });

  it('skips jobs the cache already holds, and compiles in process what the compiler did not return', async () => {
    const job = validatorsJob(files[0]!)!;
    const cache = memoryCache();
    cache.set(job.key, JSON.stringify({ code: 'export const cached = 1;', externals: [] }));
    const sent: string[] = [];
    const compiler: ValidatorsCompiler = {
      compile: async (r) => {
        sent.push(...r.map((x) => x.key));
        return new Map();
      },
      close: () => {},
    };
    const compiling = compileValidatorsAhead(files, cache, compiler);
    expect(compiling).toBeUndefined();
    const cached = await emitAll(files, BUILTIN_EMITTERS, { ...options, cache }, compiling);
    expect(sent).toEqual([]);
    expect(cached.files.find((f) => f.path === 'pets.validators.ts')!.content).toContain('export const cached = 1;\n');

    // A compiler that failed (returns nothing): the emitter compiles itself, same bytes as without a worker.
    const empty = memoryCache();
    const fresh = await emitAll(files, BUILTIN_EMITTERS, { ...options, cache: empty }, compileValidatorsAhead(files, empty, compiler));
    expect(sent).toEqual([job.key]);
    expect(fresh.files).toEqual(emit(files, BUILTIN_EMITTERS, options).files);
  });
});
