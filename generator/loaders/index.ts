/**
 * @module
 * Schema loading: files and folders in, {@link SchemaFile}s out.
 *
 * `.proto` files go through protobufjs, OpenAPI 3.0/3.1 and Swagger 2.0 documents
 * (`.yaml`, `.yml`, `.json`) through the OpenAPI loader. Both produce the same model,
 * so emitters never know which one ran.
 */
import { extname, join, relative, resolve, sep } from 'node:path';
import type { Diagnostic, SchemaFile } from '../model/model.js';
import { error, formatDiagnostic, SchemaError } from './diagnostics.js';
import { NODE_FILE_SYSTEM, type SchemaFileSystem } from './file-system.js';
import { declaresApiKey, isGeneratedContent } from './openapi/api-sniff.js';
import { isApiDocument } from './openapi/document.js';
import { loadOpenApiDocuments } from './openapi/operations.js';
import { DocumentStore, type SourceDocument, SourceParseError } from './openapi/refs.js';

export { formatDiagnostic, formatLocation, SchemaError } from './diagnostics.js';
export { memoryFileSystem, NODE_FILE_SYSTEM, type SchemaFileSystem } from './file-system.js';

/** Where schemas live. Relative paths (here and in `inputs`) are resolved from the current directory. */
export interface LoadOptions {
  /** Generation root: every `SchemaFile.path` is relative to it. */
  readonly root: string;
  /**
   * Extra folders searched for `.proto` imports (protoc's `-I`), after the importing
   * file's folder and before the root.
   */
  readonly importPaths?: readonly string[];
  /**
   * Where schemas are read from: the disk, or text in memory ({@link memoryFileSystem}).
   * @default NODE_FILE_SYSTEM
   */
  readonly fileSystem?: SchemaFileSystem;
  /**
   * `loom generate --lenient`: every refusal of the OpenAPI loader it can step past is a warning
   * instead, and stepped past: a schema it cannot read (or a `$ref` it cannot resolve) becomes
   * unknown, an operation, parameter or response it cannot read is left out. Files that do not
   * parse, unsupported versions and `.proto` problems still stop the load.
   * @default false
   */
  readonly lenient?: boolean;
}

const API_EXTENSIONS: ReadonlySet<string> = new Set(['.yaml', '.yml', '.json']);

const toPosix = (p: string) => p.split(sep).join('/');

/**
 * Loads schema files.
 *
 * @param inputs files or folders; folders are walked (sorted) for `.proto` files and for
 *   `.yaml`/`.yml`/`.json` files with a top-level `openapi` or `swagger` key (others, and files
 *   Loom generated, are skipped)
 * @returns the files asked for, sorted by path; what they import or `$ref` is reachable
 *   through `dependencies`
 * @throws SchemaError with every problem found, each with a file and a line or JSON pointer
 *
 * @example
 * const files = await loadSchemas(['schemas'], { root: 'schemas' });
 * for (const file of files) console.log(file.path, file.services.map((s) => s.name));
 */
export async function loadSchemas(inputs: readonly string[], options: LoadOptions): Promise<SchemaFile[]> {
  const root = resolve(options.root);
  const fs = options.fileSystem ?? NODE_FILE_SYSTEM;
  const problems: Diagnostic[] = [];
  const protoFiles = new Set<string>();
  /** path → text when found in a folder (read already), undefined when named explicitly. */
  const apiFiles = new Map<string, string | undefined>();
  const display = (abs: string) => toPosix(relative(root, abs)) || abs;

  for (const input of inputs) {
    const abs = resolve(input);
    const kind = await fs.kind(abs);
    if (kind === undefined) {
      problems.push(error(`no such file or folder: check the path (it is resolved from ${process.cwd()})`, { file: input }));
      continue;
    }
    if (kind === 'folder') {
      for (const file of await walk(fs, abs)) {
        const ext = extname(file).toLowerCase();
        if (ext === '.proto') protoFiles.add(file);
        else if (API_EXTENSIONS.has(ext)) {
          const text = await fs.readFile(file);
          if (declaresApiKey(text) && !isGeneratedContent(text) && !apiFiles.has(file)) apiFiles.set(file, text);
        }
      }
    } else {
      const ext = extname(abs).toLowerCase();
      if (ext === '.proto') protoFiles.add(abs);
      else if (API_EXTENSIONS.has(ext)) apiFiles.set(abs, undefined);
      else
        problems.push(error(`unsupported schema file type '${ext || '(none)'}': use .proto, .yaml, .yml or .json`, { file: display(abs) }));
    }
  }

  const store = new DocumentStore(root, fs);
  const docs: SourceDocument[] = [];
  for (const file of [...apiFiles.keys()].sort()) {
    const found = apiFiles.get(file);
    const explicit = found === undefined;
    try {
      const doc = await store.load(file, found);
      if (isApiDocument(doc.data)) docs.push(doc);
      else if (explicit)
        problems.push(
          error(
            "not an OpenAPI or Swagger document: it has no top-level 'openapi' or 'swagger' key; " +
              'add one (openapi: 3.1.0), or leave the file out of the inputs',
            { file: doc.path },
          ),
        );
    } catch (e) {
      if (e instanceof SourceParseError) problems.push(error(e.sentence, { file: display(file), line: e.line }));
      else problems.push(error(e instanceof Error ? e.message : String(e), { file: display(file) }));
    }
  }

  // Every file the documents reach through `$ref` is loaded before anything is converted: one
  // outside the root widens it (`store.root`), so that every output path stays below `--out`.
  for (const doc of docs) problems.push(...(await store.loadReferenced(doc, options.lenient)));
  const effectiveRoot = store.root;

  const results: SchemaFile[] = [];
  const run = async (what: string, load: () => Promise<SchemaFile[]>) => {
    try {
      results.push(...(await load()));
    } catch (e) {
      if (e instanceof SchemaError) problems.push(...e.diagnostics);
      // A bug or a pathological input (YAML aliases that loop, nesting deeper than the stack)
      // must still come out as a diagnostic, not a stack trace.
      else
        problems.push(
          error(`could not load ${what}: ${e instanceof Error ? e.message : String(e)}; please report this with the schema`, {
            file: what,
          }),
        );
    }
  };
  if (protoFiles.size > 0) {
    const list = [...protoFiles].sort();
    const displayProto = (abs: string) => toPosix(relative(effectiveRoot, abs)) || abs;
    // Imported only now: protobufjs takes ~50 ms to load, which OpenAPI-only runs need not pay.
    const { loadProtoFiles } = await import('./proto/load.js');
    const protoOptions = { root: effectiveRoot, importPaths: options.importPaths ?? [], fileSystem: fs };
    await run(list.length === 1 ? displayProto(list[0]!) : `${list.length} .proto files`, async () => {
      try {
        return await loadProtoFiles(list, protoOptions);
      } catch (e) {
        if (!(e instanceof SchemaError)) throw e;
        throw new SchemaError(
          await protoProblemsOfEveryFile(list, e.diagnostics, (files) => loadProtoFiles(files, protoOptions), displayProto),
        );
      }
    });
  }
  if (docs.length > 0)
    await run(docs.length === 1 ? docs[0]!.path : `${docs.length} OpenAPI documents`, () =>
      loadOpenApiDocuments(docs, store, { lenient: options.lenient ?? false }),
    );
  store.release();
  if (problems.length > 0) throw new SchemaError(problems);
  return results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The problems of every `.proto` file of a load that failed. protobufjs stops at the first file
 * that does not parse, and types are resolved only when every file parsed, so one broken file
 * hides the problems of all the others. The files that no diagnostic names are loaded again on
 * their own, until a load finds nothing new: every problem of a run is reported together.
 */
async function protoProblemsOfEveryFile(
  files: readonly string[],
  first: readonly Diagnostic[],
  load: (files: readonly string[]) => Promise<unknown>,
  display: (abs: string) => string,
): Promise<Diagnostic[]> {
  const problems = [...first];
  const seen = new Set(problems.map(formatDiagnostic));
  // By file, each file's problems in the order found: the loads find them in no useful order.
  const byFile = () => problems.sort((a, b) => (a.source.file < b.source.file ? -1 : a.source.file > b.source.file ? 1 : 0));
  let rest = files;
  for (;;) {
    const named = new Set(problems.map((d) => d.source.file));
    const next = rest.filter((f) => !named.has(display(f)));
    if (next.length === 0 || next.length === rest.length) return byFile();
    rest = next;
    try {
      await load(rest);
      return byFile();
    } catch (e) {
      if (!(e instanceof SchemaError)) return byFile();
      const fresh = e.diagnostics.filter((d) => !seen.has(formatDiagnostic(d)));
      if (fresh.length === 0) return byFile();
      for (const d of fresh) seen.add(formatDiagnostic(d));
      problems.push(...fresh);
    }
  }
}

/** Files under a folder, sorted, skipping dot-folders and `node_modules`. */
async function walk(fs: SchemaFileSystem, dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await fs.list(dir);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.kind === 'folder') {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      out.push(...(await walk(fs, path)));
    } else out.push(path);
  }
  return out;
}
