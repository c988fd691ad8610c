/**
 * @module
 * Schema loading: files and folders in, {@link SchemaFile}s out.
 *
 * `.proto` files go through protobufjs, OpenAPI 3.0/3.1 and Swagger 2.0 documents
 * (`.yaml`, `.yml`, `.json`) through the OpenAPI loader. Both produce the same model,
 * so emitters never know which one ran.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, relative, resolve, sep } from 'node:path';
import type { Diagnostic, SchemaFile } from '../model/model.js';
import { error, SchemaError } from './diagnostics.js';
import { loadOpenApiDocuments } from './openapi.js';
import { isApiDocument } from './openapi-schema.js';
import { DocumentStore, SourceParseError, type SourceDocument } from './refs.js';

export { formatDiagnostic, formatLocation, SchemaError } from './diagnostics.js';

/** Where schemas live. Relative paths (here and in `inputs`) are resolved from the current directory. */
export interface LoadOptions {
  /** Generation root: every `SchemaFile.path` is relative to it. */
  readonly root: string;
  /**
   * Extra folders searched for `.proto` imports (protoc's `-I`), after the importing
   * file's folder and before the root.
   */
  readonly importPaths?: readonly string[];
}

const API_EXTENSIONS: ReadonlySet<string> = new Set(['.yaml', '.yml', '.json']);
/**
 * Cheap test before parsing a JSON/YAML file found in a folder: most are not API documents.
 * The second branch is for JSON written on one line (`{"openapi":"3.0.3",…}`), where the key
 * starts no line of its own.
 */
const MAY_BE_API = /^\s*["']?(openapi|swagger)["']?\s*:|"(openapi|swagger)"\s*:\s*"/m;
/** Strong sign that a file found in a folder is meant as an API document, so a parse error is worth reporting. */
const MEANT_AS_API = /^(openapi|swagger)\s*:|^\s*\{?\s*"(openapi|swagger)"\s*:/m;

const toPosix = (p: string) => p.split(sep).join('/');

/**
 * Loads schema files.
 *
 * @param inputs files or folders; folders are walked (sorted) for `.proto` files and for
 *   `.yaml`/`.yml`/`.json` files that are OpenAPI or Swagger documents (others are skipped)
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
  const problems: Diagnostic[] = [];
  const protoFiles = new Set<string>();
  /** path → text when found in a folder (read already), undefined when named explicitly. */
  const apiFiles = new Map<string, string | undefined>();
  const display = (abs: string) => toPosix(relative(root, abs)) || abs;

  for (const input of inputs) {
    const abs = resolve(input);
    let info;
    try {
      info = await stat(abs);
    } catch {
      problems.push(error(`no such file or folder: check the path (it is resolved from ${process.cwd()})`, { file: input }));
      continue;
    }
    if (info.isDirectory()) {
      for (const file of await walk(abs)) {
        const ext = extname(file).toLowerCase();
        if (ext === '.proto') protoFiles.add(file);
        else if (API_EXTENSIONS.has(ext)) {
          const text = await readFile(file, 'utf8');
          if (MAY_BE_API.test(text) && !apiFiles.has(file)) apiFiles.set(file, text);
        }
      }
    } else {
      const ext = extname(abs).toLowerCase();
      if (ext === '.proto') protoFiles.add(abs);
      else if (API_EXTENSIONS.has(ext)) apiFiles.set(abs, undefined);
      else problems.push(error(`unsupported schema file type '${ext || '(none)'}': use .proto, .yaml, .yml or .json`, { file: display(abs) }));
    }
  }

  const store = new DocumentStore(root);
  const docs: SourceDocument[] = [];
  for (const file of [...apiFiles.keys()].sort()) {
    const found = apiFiles.get(file);
    // Files met while walking a folder are skipped quietly unless they are clearly meant as API documents.
    const explicit = found === undefined;
    try {
      const doc = await store.load(file, found);
      if (isApiDocument(doc.data)) docs.push(doc);
      else if (explicit) problems.push(error("not an OpenAPI or Swagger document: it has no top-level 'openapi' or 'swagger' key", { file: doc.path }));
    } catch (e) {
      if (!explicit && !MEANT_AS_API.test(found)) continue;
      if (e instanceof SourceParseError) problems.push(error(e.sentence, { file: display(file), line: e.line }));
      else problems.push(error(e instanceof Error ? e.message : String(e), { file: display(file) }));
    }
  }

  const results: SchemaFile[] = [];
  const run = async (what: string, load: () => Promise<SchemaFile[]>) => {
    try {
      results.push(...(await load()));
    } catch (e) {
      if (e instanceof SchemaError) problems.push(...e.diagnostics);
      // A bug or a pathological input (YAML aliases that loop, nesting deeper than the stack)
      // must still come out as a diagnostic, not a stack trace.
      else problems.push(error(`could not load ${what}: ${e instanceof Error ? e.message : String(e)}; please report this with the schema`, { file: what }));
    }
  };
  if (protoFiles.size > 0) {
    const list = [...protoFiles].sort();
    // Imported only now: protobufjs takes ~50 ms to load, which OpenAPI-only runs need not pay.
    await run(list.length === 1 ? display(list[0]!) : `${list.length} .proto files`, async () => {
      const { loadProtoFiles } = await import('./proto.js');
      return loadProtoFiles(list, { root, importPaths: options.importPaths ?? [] });
    });
  }
  if (docs.length > 0) await run(docs.length === 1 ? docs[0]!.path : `${docs.length} OpenAPI documents`, () => loadOpenApiDocuments(docs, store));
  if (problems.length > 0) throw new SchemaError(problems);
  return results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Files under a folder, sorted, skipping dot-folders and `node_modules`. */
async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      out.push(...(await walk(path)));
    } else if (entry.isFile()) out.push(path);
  }
  return out;
}
