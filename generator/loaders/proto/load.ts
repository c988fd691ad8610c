/**
 * @module
 * The `.proto` loader: finds files and imports, has protobufjs parse and resolve them,
 * and hands the tree to {@link ModelBuilder}.
 *
 * All files of one load share a protobufjs `Root` (so types resolve across imports,
 * as with protoc) and each reflection object remembers the file it came from, which
 * is how types are split back into one {@link SchemaFile} per `.proto` file.
 */
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import protobuf from 'protobufjs';
import type { Diagnostic, SchemaFile, SourceLocation } from '../../model/model.js';
import { error, SchemaError, warning } from '../diagnostics.js';
import { NODE_FILE_SYSTEM, type SchemaFileSystem } from '../file-system.js';
import { reservedFieldNames } from './diagnostics.js';
import { fieldJsonName, ModelBuilder, type ProtoSource, relativeName } from './model-builder.js';
import { parseFailure, parseProto } from './parse.js';
import { scanProto, withoutExtensions } from './scan.js';

export interface ProtoLoadOptions {
  /** Generation root: `SchemaFile.path` is relative to it. */
  readonly root: string;
  /** `-I` folders searched for imports; relative ones are resolved from the current directory. */
  readonly importPaths: readonly string[];
  /** Where files are read from. @default NODE_FILE_SYSTEM */
  readonly fileSystem?: SchemaFileSystem;
}

type ReflectionObject = protobuf.ReflectionObject;

/** How many input files are read at once. */
const READ_BATCH = 64;

/** protobufjs ships `google/protobuf/{api,descriptor,source_context,type}.proto` as files beside its code. */
const BUNDLED_PROTO_DIR = join(dirname(createRequire(import.meta.url).resolve('protobufjs/package.json')), 'google', 'protobuf');

const toPosix = (p: string) => p.split(sep).join('/');

/**
 * Loads `.proto` files and everything they import.
 *
 * @param inputs absolute paths of the files asked for
 * @returns one SchemaFile per input, in the order given; imports become `dependencies`
 * @throws SchemaError for syntax errors, missing imports and unresolvable types
 *
 * @example
 * const [file] = await loadProtoFiles(['/repo/schemas/system/v1alpha1/system.proto'], { root: '/repo/schemas', importPaths: [] });
 * file.services[0].fullName; // 'v1alpha1.System'
 */
export async function loadProtoFiles(inputs: readonly string[], options: ProtoLoadOptions): Promise<SchemaFile[]> {
  const load = new ProtoLoad(options);
  await load.readInputs(inputs);
  await load.followImports();
  return load.build(inputs);
}

/** One load: the shared protobufjs root, the files read so far, and the problems found. */
class ProtoLoad {
  readonly #root: string;
  readonly #importPaths: readonly string[];
  readonly #fs: SchemaFileSystem;
  readonly #pbRoot = new protobuf.Root();
  /** By key (absolute path, or `bundled:…`). */
  readonly #sources = new Map<string, ProtoSource>();
  /** By `SchemaFile.path` (the import name of files outside the root). */
  readonly #byPath = new Map<string, ProtoSource>();
  /** Files in the order read: inputs, then imports breadth-first, so each is read and parsed once. */
  readonly #queue: ProtoSource[] = [];
  readonly #importsOf = new Map<string, string[]>();
  readonly #errors: Diagnostic[] = [];
  /** Import lookups repeat (every file imports the same few): each answer, once per load. */
  readonly #isFile = new Map<string, Promise<boolean>>();

  constructor(options: ProtoLoadOptions) {
    this.#root = resolve(options.root);
    this.#importPaths = options.importPaths.map((p) => resolve(p));
    this.#fs = options.fileSystem ?? NODE_FILE_SYSTEM;
  }

  /** Reads the inputs in parallel (I/O) and parses them in order (protobufjs's parser is synchronous; order decides errors). */
  async readInputs(inputs: readonly string[]): Promise<void> {
    const keys = [...new Set(inputs.map((input) => resolve(input)))];
    for (let i = 0; i < keys.length; i += READ_BATCH) {
      const batch = await Promise.all(keys.slice(i, i + READ_BATCH).map((key) => this.#read(key, toPosix(relative(this.#root, key)))));
      for (const source of batch) {
        this.#parse(source);
        this.#queue.push(source);
      }
    }
  }

  /** Reads and parses every file the queue imports, transitively; a missing import is an error of its importer. */
  async followImports(): Promise<void> {
    for (let i = 0; i < this.#queue.length; i++) {
      const source = this.#queue[i]!;
      const keys: string[] = [];
      for (const name of source.imports) {
        const found = await this.#locateImport(name, source);
        if (!found) {
          this.#errors.push(error(this.#missingImport(name), { file: source.path, line: source.scan?.lines.get(`import:${name}`) }));
          continue;
        }
        keys.push(found.key);
        if (this.#sources.has(found.key)) continue;
        let dep: ProtoSource;
        if (found.key.startsWith('bundled:')) {
          dep = { key: found.key, path: found.path, imports: [], syntax: 'proto3', packageName: 'google.protobuf', warnings: [] };
          addBundled(this.#pbRoot, name, found.key);
          this.#sources.set(found.key, dep);
          this.#byPath.set(dep.path, dep);
        } else {
          dep = await this.#read(found.key, found.path);
          this.#parse(dep);
        }
        this.#queue.push(dep);
      }
      this.#importsOf.set(source.key, keys);
    }
  }

  /** Resolves every type name and builds the model of the inputs, or throws every problem found. */
  build(inputs: readonly string[]): SchemaFile[] {
    if (this.#errors.length > 0) throw new SchemaError(this.#errors);
    try {
      this.#pbRoot.resolveAll();
    } catch (e) {
      throw new SchemaError(diagnoseResolution(this.#pbRoot, this.#sources, e));
    }
    const clashes = jsonNameClashes(this.#pbRoot, this.#sources);
    if (clashes.length > 0) throw new SchemaError(clashes);
    return new ModelBuilder(this.#pbRoot, this.#sources, this.#importsOf).build(inputs.map((i) => resolve(i)));
  }

  #parse(source: ProtoSource): void {
    this.#sources.set(source.key, source);
    this.#byPath.set(source.path, source);
    if (source.text === undefined) return;
    try {
      const parsed = parseProto(source.scan ? withoutExtensions(source.text, source.scan) : source.text, source.key, this.#pbRoot);
      source.imports = [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])];
      source.packageName = parsed.package ?? '';
      this.#errors.push(...reservedFieldNames(source));
    } catch (e) {
      this.#errors.push(parseFailure(e, source));
    }
  }

  async #read(key: string, path: string): Promise<ProtoSource> {
    return protoSource(key, path, await this.#fs.readFile(key));
  }

  #fileExists(path: string): Promise<boolean> {
    let answer = this.#isFile.get(path);
    if (!answer) {
      // protobufjs's own google/protobuf files are on disk whatever the schemas are read from.
      const fs = path.startsWith(BUNDLED_PROTO_DIR) ? NODE_FILE_SYSTEM : this.#fs;
      answer = fs.kind(path).then((kind) => kind === 'file');
      this.#isFile.set(path, answer);
    }
    return answer;
  }

  /** Finds an import: next to the importing file, then in the import paths (`-I`), then in the root. */
  async #locateImport(name: string, importer: ProtoSource): Promise<{ key: string; path: string } | undefined> {
    // An input that is itself the imported file (e.g. loading a copy of google/protobuf/*.proto) wins.
    const loaded = this.#byPath.get(name);
    if (loaded) return { key: loaded.key, path: loaded.path };
    if (name.startsWith('google/protobuf/')) {
      if (protobuf.common.get(name)) return { key: `bundled:${name}`, path: name };
      const bundled = join(BUNDLED_PROTO_DIR, name.slice('google/protobuf/'.length));
      if (await this.#fileExists(bundled)) return { key: bundled, path: name };
    }
    const importerDir = importer.key.startsWith('bundled:') ? undefined : dirname(importer.key);
    const candidates = [...(importerDir ? [importerDir] : []), ...this.#importPaths, this.#root];
    for (const dir of candidates) {
      const abs = resolve(dir, name);
      if (await this.#fileExists(abs)) {
        const rel = relative(this.#root, abs);
        const insideRoot = !rel.startsWith('..') && !isAbsolute(rel);
        // Files outside the root are named by their import name, the name protoc would give them.
        const path = insideRoot ? toPosix(rel) : dir === importerDir ? posix.join(posix.dirname(importer.path), name) : name;
        return { key: abs, path };
      }
    }
    return undefined;
  }

  #missingImport(name: string): string {
    const paths = this.#importPaths.map((p) => toPosix(relative(this.#root, p)) || '.').join(', ');
    return (
      `cannot find import "${name}": looked next to the file, ` +
      `in ${this.#importPaths.length > 0 ? `the import paths (${paths}) and ` : ''}the root; ` +
      `add the folder that holds it as an import path (-I)`
    );
  }
}

/** A file's text with what the scan finds in it: lines of declarations, extensions (ignored, with a warning), its edition. */
function protoSource(key: string, path: string, text: string): ProtoSource {
  const scan = scanProto(text);
  const source: ProtoSource = {
    key,
    path,
    text,
    scan,
    imports: [],
    packageName: '',
    syntax: scan.syntax === 'proto2' ? 'proto2' : 'proto3',
    warnings: [],
  };
  for (const block of scan.extensions) {
    // Extending google.protobuf.*Options declares custom options (annotations), not data.
    if (/(^|\.)\w*Options$/.test(block.extendee)) continue;
    source.warnings.push(
      warning(`extension of '${block.extendee}' is ignored: extensions have no place in the generated types`, {
        file: path,
        line: block.line,
      }),
    );
  }
  if (scan.edition !== undefined) {
    source.warnings.push(
      warning(`edition "${scan.edition}" is loaded like proto3 with field presence from its features; other features are ignored`, {
        file: path,
      }),
    );
  }
  return source;
}

/** Adds one of protobufjs's built-in JSON definitions and tags its types with the file name. */
function addBundled(pbRoot: protobuf.Root, name: string, key: string): void {
  const json = protobuf.common.get(name)!;
  pbRoot.addJSON(json.nested!);
  const tag = (ns: ReflectionObject) => {
    if ((ns instanceof protobuf.Type || ns instanceof protobuf.Enum) && !ns.filename) ns.filename = key;
    if (ns instanceof protobuf.Namespace) for (const child of ns.nestedArray) tag(child);
  };
  tag(pbRoot);
}

/**
 * Fields of one message with the same JSON name (`foo_bar` and `fooBar`, or a `json_name` that
 * repeats another field's): proto3 JSON cannot tell them apart and the generated TypeScript would
 * declare one property twice. protoc refuses them too.
 */
function jsonNameClashes(pbRoot: protobuf.Root, sources: ReadonlyMap<string, ProtoSource>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const visit = (ns: ReflectionObject) => {
    if (ns instanceof protobuf.Type && ns.filename !== undefined && ns.filename !== null && sources.get(ns.filename)?.scan !== undefined) {
      const seen = new Map<string, string>();
      const owner = relativeName(ns, sources);
      for (const f of ns.fieldsArray) {
        if (f.declaringField || f.extend !== undefined) continue;
        const json = fieldJsonName(f);
        const first = seen.get(json);
        if (first === undefined) {
          seen.set(json, f.name);
          continue;
        }
        const source = sources.get(ns.filename)!;
        out.push(
          error(
            `field '${f.name}' of '${owner}' has the JSON name '${json}', as field '${first}' does: ` +
              `proto3 JSON and the generated TypeScript property cannot tell them apart; rename one, or give one a different json_name`,
            { file: source.path, line: source.scan?.lines.get(`${owner}#${f.name}`) },
          ),
        );
      }
    }
    if (ns instanceof protobuf.Namespace) for (const child of ns.nestedArray) visit(child);
  };
  visit(pbRoot);
  return out;
}

/** Finds which fields or methods name a type that does not exist, for a useful error. */
function diagnoseResolution(pbRoot: protobuf.Root, sources: ReadonlyMap<string, ProtoSource>, cause: unknown): Diagnostic[] {
  const out: Diagnostic[] = [];
  const where = (obj: ReflectionObject, key: string): SourceLocation => {
    const source = obj.filename ? sources.get(obj.filename) : undefined;
    return { file: source?.path ?? obj.filename ?? '?', line: source?.scan?.lines.get(key) };
  };
  const visit = (ns: ReflectionObject) => {
    if (ns instanceof protobuf.Type) {
      for (const f of ns.fieldsArray) {
        try {
          f.resolve();
        } catch {
          const owner = relativeName(ns, sources);
          out.push(
            error(
              `field '${f.name}' of '${owner}' has unknown type '${f.type}': import the file that declares it, or fix the name`,
              where(ns, `${owner}#${f.name}`),
            ),
          );
        }
      }
    }
    if (ns instanceof protobuf.Service) {
      for (const m of ns.methodsArray) {
        try {
          m.resolve();
        } catch {
          const owner = relativeName(ns, sources);
          // Name only the side that is missing: `'Chunk' or 'Receipt'` sends people hunting for a type that exists.
          const missing = [m.requestType, m.responseType].filter(
            (name, i, all) => all.indexOf(name) === i && ns.parent?.lookup(name, [protobuf.Type]) == null,
          );
          const named = missing.length === 0 ? `'${m.requestType}' or '${m.responseType}'` : missing.map((t) => `'${t}'`).join(' and ');
          const noun = missing.length > 1 ? 'unknown messages' : 'an unknown message';
          out.push(
            error(
              `rpc '${m.name}' of '${owner}' names ${noun} ${named}: import the file that declares it, or fix the name`,
              where(ns, `${owner}#${m.name}`),
            ),
          );
        }
      }
    }
    if (ns instanceof protobuf.Namespace) for (const child of ns.nestedArray) visit(child);
  };
  visit(pbRoot);
  if (out.length === 0) out.push(error(`cannot resolve types: ${cause instanceof Error ? cause.message : String(cause)}`, { file: '?' }));
  return out;
}
