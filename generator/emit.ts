/**
 * @module
 * The emit pipeline: model in, in-memory files out. No file system access here;
 * only the CLI writes to disk, so emitters can be tested in memory.
 */
import { SchemaError } from './loaders/diagnostics.js';
import type { Diagnostic, SchemaFile } from './model/model.js';
import { GeneratedFile } from './printer/generated-file.js';
import type { Templates } from './templates.js';

export const GENERATOR_NAME = 'loom';
export const GENERATOR_VERSION = '0.1.0';

export interface GeneratorOptions {
  /**
   * How generated code imports Loom's runtime entries (`rest`, `client`, `connect`,
   * `connect/server`, `grpc`). A package name such as `loom` (the default for users, giving
   * `loom/rest`), or a path relative to the output root starting with `.` (this repository
   * uses `../runtime/entries`, the folder those entries are built from).
   * @default 'loom'
   */
  readonly runtimeImport: string;
  /**
   * The options that shaped the output, as the command line spelled them
   * (`--runtime ../runtime/entries`): every file's header records them, so a file says how to
   * regenerate it identically.
   */
  readonly parameters?: string;
  /** Handlebars templates, built-ins overlaid by user directories. */
  readonly templates: Templates;
  /**
   * Optional store for expensive, pure results (compiled validators), keyed by a hash of
   * everything that determines them. The CLI backs it with `node_modules/.cache/loom`;
   * emitters stay free of file system access.
   */
  readonly cache?: GeneratorCache;
}

/** A content-addressed store: `get` returns what `set` stored under the same key, or undefined. */
export interface GeneratorCache {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** What every emitter gets besides the file it emits for. */
export interface EmitContext {
  readonly options: GeneratorOptions;
  /** All loaded files (for cross-file lookups). */
  readonly files: readonly SchemaFile[];
  /**
   * True for a file the run was asked for, false for one generated only because an asked-for file
   * imports it: code other files import (types, validators, codecs) is generated for both,
   * artefacts nothing imports (the JSON Schema document) for asked-for files only.
   */
  isInput(file: SchemaFile): boolean;
  /**
   * Output path for `file` with the given suffix: `system/v1alpha1/system.proto` +
   * `server.ts` gives `system/v1alpha1/system.server.ts`.
   */
  outputPath(file: SchemaFile, suffix: string): string;
  /** Starts a TypeScript file with the standard preamble naming `file` as its source. */
  newFile(path: string, source: SchemaFile): GeneratedFile;
  /** Adds a finished non-TypeScript file (JSON document, standalone validator JS). */
  addFile(path: string, content: string): void;
  warn(diagnostic: Diagnostic): void;
}

/** One output concern (types, validators, server, client, docs). */
export interface Emitter {
  readonly name: string;
  emit(file: SchemaFile, ctx: EmitContext): void;
}

export interface OutputFile {
  readonly path: string;
  readonly content: string;
}

export interface EmitResult {
  /** Sorted by path. */
  readonly files: readonly OutputFile[];
  readonly warnings: readonly Diagnostic[];
}

/** `system/v1alpha1/system.proto` → `system/v1alpha1/system`: what every output path of a file starts with. */
function outputBase(file: SchemaFile): string {
  return file.path.replace(/\.(proto|ya?ml|json)$/i, '');
}

/**
 * Schema files whose outputs would land on the same paths (`api.yaml` and `api.json` in one
 * folder both give `api.types.ts`): one error per file that comes second, naming the first.
 *
 * @example
 * outputCollisions([apiJson, apiYaml]);
 * // [{ severity: 'error', source: { file: 'api.yaml' },
 * //    message: "its output files (api.types.ts, api.server.ts, …) would be the same as those of api.json …" }]
 */
export function outputCollisions(files: readonly SchemaFile[]): Diagnostic[] {
  const first = new Map<string, SchemaFile>();
  const problems: Diagnostic[] = [];
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const base = outputBase(file);
    const earlier = first.get(base);
    if (earlier === undefined) first.set(base, file);
    else {
      problems.push({
        severity: 'error',
        message:
          `its output files (${base}.types.ts, ${base}.server.ts, …) would be the same as those of ${earlier.path}: ` +
          `rename one of the two, or generate them in separate runs`,
        source: { file: file.path },
      });
    }
  }
  return problems;
}

/**
 * The files plus every file they import, transitively: generated code imports what the files it
 * comes from import (`google/protobuf/empty.types.ts` holds `type Empty = …` for an RPC that takes
 * `google.protobuf.Empty`; a validator calls the validators of the types another file declares).
 * Files as given first, then imports in discovery order; each once.
 *
 * @example
 * withDependencies([orders]); // [orders, google/protobuf/timestamp.proto, …]
 */
export function withDependencies(files: readonly SchemaFile[]): SchemaFile[] {
  const out: SchemaFile[] = [];
  const seen = new Set<SchemaFile>();
  const visit = (file: SchemaFile) => {
    if (seen.has(file)) return;
    seen.add(file);
    out.push(file);
    for (const dep of file.dependencies) visit(dep);
  };
  for (const file of files) visit(file);
  return out;
}

/**
 * Runs every emitter over every file, and over every file they import (see
 * {@link withDependencies}), and returns the output, sorted by path.
 */
export function emit(given: readonly SchemaFile[], emitters: readonly Emitter[], options: GeneratorOptions): EmitResult {
  const files = withDependencies(given);
  const collisions = outputCollisions(files);
  // Reported like a schema problem (`file: error: …`, exit 2), before anything is emitted.
  if (collisions.length > 0) throw new SchemaError(collisions);
  const generated: GeneratedFile[] = [];
  const raw = new Map<string, string>();
  const warnings: Diagnostic[] = [];
  for (const file of files) warnings.push(...file.warnings);
  const inputs = new Set(given);
  const ctx: EmitContext = {
    options,
    files,
    isInput: (file) => inputs.has(file),
    outputPath(file, suffix) {
      return `${outputBase(file)}.${suffix}`;
    },
    newFile(path, source) {
      const f = new GeneratedFile({
        path,
        runtimeImport: options.runtimeImport,
        preamble: { generator: `${GENERATOR_NAME} ${GENERATOR_VERSION}`, source: source.path, parameters: options.parameters },
      });
      generated.push(f);
      return f;
    },
    addFile(path, content) {
      raw.set(path, content.endsWith('\n') ? content : `${content}\n`);
    },
    warn(diagnostic) {
      warnings.push(diagnostic);
    },
  };
  for (const file of files) {
    for (const emitter of emitters) {
      try {
        emitter.emit(file, ctx);
      } catch (e) {
        // Schema problems an emitter finds carry their diagnostics; anything else is a bug in Loom
        // or input it cannot handle, said with the file and the emitter rather than a stack trace.
        if (e instanceof SchemaError || (e as { diagnostics?: unknown } | null)?.diagnostics !== undefined) throw e;
        if ((e as Error | null)?.name === 'TemplateError') throw e;
        const message =
          `the ${emitter.name} emitter failed on this file: ${e instanceof Error ? e.message : String(e)}; ` +
          `please report this with the description`;
        throw Object.assign(new SchemaError([{ severity: 'error', message, source: { file: file.path } }]), { cause: e });
      }
    }
  }
  const out = new Map<string, string>(raw);
  for (const f of generated) {
    if (out.has(f.path)) throw new Error(`two emitters wrote ${f.path}`);
    out.set(f.path, f.toString());
  }
  return {
    files: [...out.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, content]) => ({ path, content })),
    warnings,
  };
}
