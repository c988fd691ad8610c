/**
 * @module
 * The `.proto` loader: finds files and imports, has protobufjs parse and resolve them,
 * and hands the tree to {@link ModelBuilder}.
 *
 * All files of one load share a protobufjs `Root` (so types resolve across imports,
 * as with protoc) and each reflection object remembers the file it came from, which
 * is how types are split back into one {@link SchemaFile} per `.proto` file.
 */
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import protobuf from 'protobufjs';
import type { Diagnostic, SchemaFile, SourceLocation } from '../../model/model.js';
import { error, SchemaError, warning } from '../diagnostics.js';
import { fieldJsonName, ModelBuilder, relativeName, type ProtoSource } from './model-builder.js';
import { duplicateNumber, reservedFieldNames, reservedUse } from './diagnostics.js';
import { scanProto, withoutExtensions } from './scan.js';

export interface ProtoLoadOptions {
  /** Generation root: `SchemaFile.path` is relative to it. */
  readonly root: string;
  /** `-I` folders searched for imports; relative ones are resolved from the current directory. */
  readonly importPaths: readonly string[];
}

type ReflectionObject = protobuf.ReflectionObject;

/** protobufjs tags parsed objects with this module-level file name; its typings omit it. */
const parser = protobuf.parse as typeof protobuf.parse & { filename: string | null };

/** How many input files are read at once. */
const READ_BATCH = 64;

const PARSE_OPTIONS: protobuf.IParseOptions = { keepCase: true, alternateCommentMode: true };

/** protobufjs ships `google/protobuf/{api,descriptor,source_context,type}.proto` as files beside its code. */
const BUNDLED_PROTO_DIR = join(dirname(createRequire(import.meta.url).resolve('protobufjs/package.json')), 'google', 'protobuf');

const toPosix = (p: string) => p.split(sep).join('/');

/** Import lookups repeat (every file imports the same few); remember each answer for the load. */
function fileChecker(): (path: string) => Promise<boolean> {
  const known = new Map<string, Promise<boolean>>();
  return (path) => {
    let answer = known.get(path);
    if (!answer) {
      answer = stat(path).then(
        (s) => s.isFile(),
        () => false,
      );
      known.set(path, answer);
    }
    return answer;
  };
}

/** Splits protobufjs's `illegal token 'x' (file.proto, line 3)` into the sentence and the line. */
function parseErrorLocation(message: string): { message: string; line?: number } {
  const m = /^(.*?)\s*\((?:[^,()]*, )?line (\d+)\)$/.exec(message);
  return m ? { message: m[1]!, line: Number(m[2]) } : { message };
}

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
  const root = resolve(options.root);
  const importPaths = options.importPaths.map((p) => resolve(p));
  const pbRoot = new protobuf.Root();
  const sources = new Map<string, ProtoSource>();
  const errors: Diagnostic[] = [];

  const byPath = new Map<string, ProtoSource>();
  const isFile = fileChecker();
  const parseSource = (source: ProtoSource): void => {
    sources.set(source.key, source);
    byPath.set(source.path, source);
    if (source.text === undefined) return;
    const previous = parser.filename;
    parser.filename = source.key;
    // protobufjs throws and catches errors while reading option values; without stack
    // traces those are cheap, which halves parse time on large trees. Messages are kept.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      const parsed = protobuf.parse(source.scan ? withoutExtensions(source.text, source.scan) : source.text, pbRoot, PARSE_OPTIONS);
      source.imports = [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])];
      source.packageName = parsed.package ?? '';
      errors.push(...reservedFieldNames(source));
    } catch (e) {
      const { message, line } = parseErrorLocation(e instanceof Error ? e.message : String(e));
      const duplicate = /^duplicate name '([^']+)' in \w+ \.?(.*)$/.exec(message);
      const duplicateId = /^duplicate id (\d+) in (\w+) \.?(.*)$/.exec(message);
      const reserved = /^(id \d+|name '[^']+') is reserved in (\w+) \.?(.*)$/.exec(message);
      if (reserved) {
        errors.push(reservedUse(source, reserved[1]!, reserved[2]!.toLowerCase(), reserved[3]!, line));
      } else if (duplicateId) {
        errors.push(duplicateNumber(source, Number(duplicateId[1]), duplicateId[2]!.toLowerCase(), duplicateId[3]!, line));
      } else if (duplicate) {
        const name = duplicate[1]!;
        const scope = duplicate[2]!;
        const matches = (k: string) => k === name || k.endsWith(`.${name}`) || k.endsWith(`#${name}`);
        const twice = [...(source.scan?.repeated ?? [])].find(([k]) => matches(k));
        if (twice) {
          const [first, ...later] = twice[1];
          errors.push(
            error(`'${name}' is declared twice in '${scope}' in this file (also on line ${first}): rename or remove one of them`, {
              file: source.path,
              line: later[0],
            }),
          );
        } else {
          const where = [...(source.scan?.lines ?? [])].find(([k]) => matches(k));
          errors.push(
            error(
              `'${name}' is declared twice in '${scope}': another loaded file already defines it; rename one of them or load the files separately`,
              { file: source.path, line: where?.[1] },
            ),
          );
        }
      } else {
        errors.push(error(`cannot parse: ${message}`, { file: source.path, line }));
      }
    } finally {
      parser.filename = previous;
      Error.stackTraceLimit = stackTraceLimit;
    }
  };

  const readSource = async (key: string, path: string): Promise<ProtoSource> => {
    const text = await readFile(key, 'utf8');
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
  };

  /** Finds an import: next to the importing file, then in the import paths (`-I`), then in the root. */
  const locateImport = async (name: string, importer: ProtoSource): Promise<{ key: string; path: string } | undefined> => {
    // An input that is itself the imported file (e.g. loading a copy of google/protobuf/*.proto) wins.
    const loaded = byPath.get(name);
    if (loaded) return { key: loaded.key, path: loaded.path };
    if (name.startsWith('google/protobuf/')) {
      if (protobuf.common.get(name)) return { key: `bundled:${name}`, path: name };
      const bundled = join(BUNDLED_PROTO_DIR, name.slice('google/protobuf/'.length));
      if (await isFile(bundled)) return { key: bundled, path: name };
    }
    const importerDir = importer.key.startsWith('bundled:') ? undefined : dirname(importer.key);
    const candidates = [...(importerDir ? [importerDir] : []), ...importPaths, root];
    for (const dir of candidates) {
      const abs = resolve(dir, name);
      if (await isFile(abs)) {
        const rel = relative(root, abs);
        const insideRoot = !rel.startsWith('..') && !isAbsolute(rel);
        // Files outside the root are named by their import name, the name protoc would give them.
        const path = insideRoot ? toPosix(rel) : dir === importerDir ? posix.join(posix.dirname(importer.path), name) : name;
        return { key: abs, path };
      }
    }
    return undefined;
  };

  // Breadth-first over imports so that each file is read and parsed exactly once.
  const queue: ProtoSource[] = [];
  const keys = [...new Set(inputs.map((input) => resolve(input)))];
  // Read in parallel (I/O), parse in order (protobufjs's parser is synchronous and order matters for errors).
  for (let i = 0; i < keys.length; i += READ_BATCH) {
    const batch = await Promise.all(keys.slice(i, i + READ_BATCH).map((key) => readSource(key, toPosix(relative(root, key)))));
    for (const source of batch) {
      parseSource(source);
      queue.push(source);
    }
  }
  const importsOf = new Map<string, string[]>();
  for (let i = 0; i < queue.length; i++) {
    const source = queue[i]!;
    const keys: string[] = [];
    for (const name of source.imports) {
      const found = await locateImport(name, source);
      if (!found) {
        errors.push(
          error(
            `cannot find import "${name}": looked next to the file, in ${importPaths.length > 0 ? `the import paths (${importPaths.map((p) => toPosix(relative(root, p)) || '.').join(', ')}) and ` : ''}the root; add the folder that holds it as an import path (-I)`,
            { file: source.path, line: source.scan?.lines.get(`import:${name}`) },
          ),
        );
        continue;
      }
      keys.push(found.key);
      if (sources.has(found.key)) continue;
      let dep: ProtoSource;
      if (found.key.startsWith('bundled:')) {
        dep = { key: found.key, path: found.path, imports: [], syntax: 'proto3', packageName: 'google.protobuf', warnings: [] };
        addBundled(pbRoot, name, found.key);
        sources.set(found.key, dep);
        byPath.set(dep.path, dep);
      } else {
        dep = await readSource(found.key, found.path);
        parseSource(dep);
      }
      queue.push(dep);
    }
    importsOf.set(source.key, keys);
  }
  if (errors.length > 0) throw new SchemaError(errors);

  try {
    pbRoot.resolveAll();
  } catch (e) {
    throw new SchemaError(diagnoseResolution(pbRoot, sources, e));
  }
  const clashes = jsonNameClashes(pbRoot, sources);
  if (clashes.length > 0) throw new SchemaError(clashes);

  return new ModelBuilder(pbRoot, sources, importsOf).build(inputs.map((i) => resolve(i)));
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
            `field '${f.name}' of '${owner}' has the JSON name '${json}', as field '${first}' does: proto3 JSON and the generated TypeScript property cannot tell them apart; rename one, or give one a different json_name`,
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
