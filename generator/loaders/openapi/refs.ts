/**
 * @module
 * OpenAPI documents on disk and `$ref` resolution between them.
 *
 * Each file is read and parsed once (`JSON.parse` for `.json`, `yaml` otherwise) and
 * kept with what is needed to give a JSON pointer its line. Every external `$ref` is
 * found and loaded up front, so that the conversion that follows is synchronous and
 * can resolve each reference exactly once.
 */
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Document, LineCounter, Node } from 'yaml';
import type { Diagnostic, SourceLocation } from '../../model/model.js';
import { error } from '../diagnostics.js';
import { NODE_FILE_SYSTEM, type SchemaFileSystem } from '../file-system.js';
import { escapePointerSegment, jsonPointerLines } from './json-lines.js';
import { overrideHint } from './problems.js';
import { jsonParseError, SourceParseError, yamlParseError } from './source-parse-error.js';

export { SourceParseError } from './source-parse-error.js';

/** A parsed file. */
export interface SourceDocument {
  /** Absolute path. */
  readonly key: string;
  /**
   * Path relative to the generation root, `/`-separated. Read it once loading is done: a `$ref` to
   * a file outside the root widens the root (see {@link DocumentStore.root}), which changes it.
   */
  readonly path: string;
  readonly data: unknown;
  /** 1-based line of the key or item at `pointer`, when known. */
  lineOf(pointer: string): number | undefined;
}

/** Where a `$ref` points: a loaded document and a pointer inside it. */
export interface RefTarget {
  readonly doc: SourceDocument;
  readonly pointer: string;
  readonly value: unknown;
}

/** A file a `$ref` names that could not be loaded. */
export interface Unloadable {
  /** Why, as a clause: `the file does not exist`. */
  readonly reason: string;
  /**
   * True when that was reported where the file was first referenced, so its uses need no error of
   * their own; false when `--lenient` left it to each use to say what became of it.
   */
  readonly reported: boolean;
}

/** What `--lenient` makes of the `$ref`s to a file it cannot load. */
const EVERY_REF_TO_IT = 'every $ref to it becomes unknown, or leaves out the parameter, response, … it stands for';

const toPosix = (p: string) => p.split(sep).join('/');

/**
 * The segments of a JSON pointer, unescaped.
 * @example pointerSegments('/paths/~1repos~1{owner}') // ['paths', '/repos/{owner}']
 */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return pointer === '/' ? [''] : [];
  const segments = pointer.slice(1).split('/');
  return pointer.includes('~') ? segments.map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')) : segments;
}

/**
 * Appends segments to a pointer, escaping them.
 * @example childPointer('/paths', '/repos', 'get') // '/paths/~1repos/get'
 */
export function childPointer(pointer: string, ...segments: readonly (string | number)[]): string {
  // Called for nearly every node of a document (every model node keeps its pointer), so a
  // plain loop: this was a fifth of loading Gitea's API with `reduce`.
  let out = pointer;
  for (const s of segments) out += `/${typeof s === 'number' ? s : escapePointerSegment(s)}`;
  return out;
}

function lookup(data: unknown, segments: readonly string[]): unknown {
  let node = data;
  for (const segment of segments) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (node !== null && typeof node === 'object' && Object.hasOwn(node, segment)) node = (node as Record<string, unknown>)[segment];
    else return undefined;
  }
  return node;
}

/** The `yaml` package, imported on first use: JSON documents (most large APIs) never need it. */
type YamlModule = typeof import('yaml');
let yamlModule: Promise<YamlModule> | undefined;

function yamlLine(yaml: YamlModule, doc: Document, counter: LineCounter, segments: readonly string[]): number | undefined {
  const { isMap, isScalar, isSeq } = yaml;
  let node: Node | null | undefined = doc.contents as Node | null;
  let line = node?.range ? counter.linePos(node.range[0]).line : undefined;
  for (const segment of segments) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === segment);
      if (!pair) return line;
      const key = pair.key as Node | null;
      if (key?.range) line = counter.linePos(key.range[0]).line;
      node = pair.value as Node | null;
    } else if (isSeq(node)) {
      node = node.items[Number(segment)] as Node | null;
      if (node?.range) line = counter.linePos(node.range[0]).line;
    } else return line;
  }
  return line;
}

/**
 * Loads and caches documents; resolves `$ref` strings against them.
 * @example
 * const store = new DocumentStore('/repo/schemas');
 * const doc = await store.load('/repo/schemas/api.yaml');
 * const target = store.resolveRef('#/components/schemas/Issue', doc); // { doc, pointer, value } or a reason
 */
export class DocumentStore {
  #root: string;
  readonly #docs = new Map<string, SourceDocument>();
  /** Files a `$ref` names that could not be loaded, by absolute path. */
  readonly #unloadable = new Map<string, Unloadable>();
  /** Documents whose references were loaded already. */
  readonly #referenced = new Set<string>();

  readonly #fs: SchemaFileSystem;

  constructor(root: string, fileSystem: SchemaFileSystem = NODE_FILE_SYSTEM) {
    this.#root = resolve(root);
    this.#fs = fileSystem;
  }

  /**
   * The generation root: the one given, widened to the deepest folder that also holds every file
   * loaded since (a `$ref` to `../../shared/user.yaml` from an input in the root). Output paths
   * mirror paths below it, so a file outside the given root gets one too, never an absolute path.
   */
  get root(): string {
    return this.#root;
  }

  get(key: string): SourceDocument | undefined {
    return this.#docs.get(key);
  }

  /**
   * Reads and parses a file (once). Throws a diagnostic-shaped error on unreadable or
   * malformed files.
   */
  async load(key: string, text?: string): Promise<SourceDocument> {
    const cached = this.#docs.get(key);
    if (cached) return cached;
    const rel = relative(this.#root, key);
    if (rel.startsWith('..') || isAbsolute(rel)) this.#root = commonFolder(this.#root, dirname(key));
    const source = text ?? (await this.#fs.readFile(key));
    const yaml = isJsonPath(key) ? undefined : await (yamlModule ??= import('yaml'));
    // Computed again only when the root has widened since.
    let root: string | undefined;
    let path = '';
    const pathBelowRoot = () => {
      if (root !== this.#root) path = toPosix(relative((root = this.#root), key));
      return path;
    };
    const doc = parseSource(key, pathBelowRoot, source, yaml);
    this.#docs.set(key, doc);
    return doc;
  }

  /**
   * Loads every document reachable from `doc` through external `$ref`s, once: a second call for
   * the same document does nothing. Returns diagnostics for files that cannot be read or parsed;
   * references to them are then not reported again where they are resolved
   * (see {@link DocumentStore.unloadable}). With `lenient`, a file that is missing or a URL is no
   * error: each `$ref` to it says so where it is resolved, and is stepped past there. A file that
   * does not parse is an error either way (its syntax is to be fixed, not guessed at).
   */
  async loadReferenced(doc: SourceDocument, lenient = false): Promise<Diagnostic[]> {
    if (this.#referenced.has(doc.key)) return [];
    this.#referenced.add(doc.key);
    const problems: Diagnostic[] = [];
    const queue = [doc];
    const seen = new Set([doc.key]);
    for (let i = 0; i < queue.length; i++) {
      const current = queue[i]!;
      for (const { ref, pointer } of collectRefs(current.data)) {
        const hash = ref.indexOf('#');
        const file = hash === -1 ? ref : ref.slice(0, hash);
        if (file === '') continue;
        const key = resolve(dirname(current.key), safeDecode(file));
        if (seen.has(key)) continue;
        seen.add(key);
        if (this.#unloadable.has(key)) continue;
        const unloadable = (reason: string, message: string, overridable: boolean) => {
          const reported = !(lenient && overridable);
          this.#unloadable.set(key, { reason, reported });
          if (reported) problems.push(error(message, this.location(current, pointer)));
        };
        if (/^[a-z][a-z0-9+.-]*:/i.test(file)) {
          unloadable(
            'it points to a URL, and only local files are read',
            `$ref '${ref}' points to a URL; only local files are supported: download it next to the schema and use a relative path; ` +
              overrideHint(EVERY_REF_TO_IT),
            true,
          );
          continue;
        }
        try {
          queue.push(await this.load(key));
        } catch (e) {
          const reason =
            (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : e instanceof Error ? e.message : String(e);
          // A file that exists but does not parse needs its syntax fixed, not the path.
          const syntax = e instanceof SourceParseError;
          const fix = syntax
            ? 'fix the syntax there'
            : `fix the path (it is relative to ${current.path}); ${overrideHint(EVERY_REF_TO_IT)}`;
          unloadable(reason, `$ref '${ref}' cannot be loaded: ${reason}; ${fix}`, !syntax);
        }
      }
    }
    return problems;
  }

  /** The file `ref` (written in `from`) names when it could not be loaded, or undefined. */
  unloadable(ref: string, from: SourceDocument): Unloadable | undefined {
    const hash = ref.indexOf('#');
    const file = hash === -1 ? ref : ref.slice(0, hash);
    return file === '' ? undefined : this.#unloadable.get(resolve(dirname(from.key), safeDecode(file)));
  }

  /**
   * Lets go of every document's parsed data once the model is built: the model holds what it
   * needs, and a large description's data is most of a run's memory (GitHub's: ~100 MB). Lines are
   * still found for diagnostics (from the text, or the YAML tree).
   */
  release(): void {
    for (const doc of this.#docs.values()) (doc as { data: unknown }).data = undefined;
  }

  /**
   * Resolves a `$ref` string written in `from`.
   * @returns the target, or a sentence explaining why it cannot be resolved
   */
  resolveRef(ref: string, from: SourceDocument): RefTarget | string {
    const hash = ref.indexOf('#');
    const file = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? '' : safeDecode(ref.slice(hash + 1));
    const doc = file === '' ? from : this.#docs.get(resolve(dirname(from.key), safeDecode(file)));
    if (!doc) return `the file '${file}' was not loaded`;
    if (fragment !== '' && !fragment.startsWith('/'))
      return `the fragment '#${fragment}' is not a JSON pointer (anchors and $id are not supported); use '#/path/to/schema'`;
    const value = lookup(doc.data, pointerSegments(fragment));
    if (value === undefined) return `nothing is declared at '${fragment || '/'}' in ${doc.path}`;
    return { doc, pointer: fragment, value };
  }

  /**
   * The location of a node. `line` is computed when first read: every model node has a
   * location, few are ever printed, and finding lines costs a scan of the whole text.
   */
  location(doc: SourceDocument, pointer: string): SourceLocation {
    let line: number | undefined | null = null;
    return {
      // Read when printed: the root may still widen while files load.
      get file() {
        return doc.path;
      },
      get line() {
        if (line === null) line = doc.lineOf(pointer);
        return line;
      },
      pointer,
    };
  }
}

/** `$ref`s are URI references, but people write `{` and `%` unencoded: decode when it is valid. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const isJsonPath = (key: string) => /\.json$/i.test(key);

/** The deepest folder holding both `a` and `b` (absolute paths). */
function commonFolder(a: string, b: string): string {
  const x = a.split(sep);
  const y = b.split(sep);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return x.slice(0, i).join(sep) || sep;
}

/**
 * Parses a file's text: `JSON.parse` for `.json` (`yaml` is undefined then), the YAML parser
 * otherwise. `path` gives the path below the root, which may still change while files load.
 */
function parseSource(key: string, path: () => string, raw: string, yaml: YamlModule | undefined): SourceDocument {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw; // editors on Windows add a BOM
  if (!yaml) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      throw jsonParseError(path(), text, e instanceof Error ? e.message : String(e));
    }
    if (data !== null && typeof data === 'object' && !mayReferOut(text)) LOCAL_REFS_ONLY.add(data);
    let lines: Map<string, number> | undefined;
    return {
      key,
      get path() {
        return path();
      },
      data,
      lineOf(pointer) {
        lines ??= jsonPointerLines(text);
        return lines.get(pointer);
      },
    };
  }
  const counter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter: counter, uniqueKeys: false });
  if (doc.errors.length > 0) {
    throw yamlParseError(path(), doc.errors[0]!);
  }
  const data: unknown = doc.toJS({ maxAliasCount: -1 });
  return {
    key,
    get path() {
      return path();
    },
    data,
    lineOf: (pointer) => yamlLine(yaml, doc, counter, pointerSegments(pointer)),
  };
}

/**
 * Parsed JSON documents whose text shows that every `$ref` in them is local (`#/…`): walking them
 * for references to other files finds nothing (the walk was about 15 ms of the 180 ms that loading
 * Gitea's API took).
 */
const LOCAL_REFS_ONLY = new WeakSet<object>();

/** Escapes that could spell a character of `$ref` in a key (`"\u0024ref"`); all four are digits only. */
const REF_KEY_ESCAPES = ['\\u0024', '\\u0072', '\\u0065', '\\u0066'];

/**
 * Whether a JSON text may hold a `$ref` to another file: a `"$ref"` key whose string value does not
 * start with `#` (an escaped `#` counts as not starting with it), or a key that escapes one of its
 * letters and so cannot be told apart without parsing. False only when neither is there.
 */
function mayReferOut(text: string): boolean {
  return /"\$ref"\s*:\s*"[^#]/.test(text) || REF_KEY_ESCAPES.some((e) => text.includes(e));
}

/** Every `$ref` to another file in a document, with the pointer of the object holding it. */
function collectRefs(data: unknown): { ref: string; pointer: string }[] {
  const out: { ref: string; pointer: string }[] = [];
  // A stack, not recursion: a document may nest deeper than the call stack goes. Each frame links
  // to its parent, so a pointer is built only for the (rare) external refs: this walks every node.
  interface Frame {
    readonly node: object;
    readonly key: string;
    readonly parent: Frame | undefined;
  }
  const pointerOf = (frame: Frame): string => {
    const segments: string[] = [];
    for (let f: Frame | undefined = frame; f?.parent !== undefined; f = f.parent) segments.push(escapePointerSegment(f.key));
    return segments
      .reverse()
      .map((s) => `/${s}`)
      .join('');
  };
  // YAML aliases can make the same object appear twice, or inside itself.
  const seen = new WeakSet<object>();
  if (data === null || typeof data !== 'object' || LOCAL_REFS_ONLY.has(data)) return out;
  const stack: Frame[] = [{ node: data, key: '', parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const node = frame.node;
    if (seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        const item: unknown = node[i];
        if (typeof item === 'object' && item !== null) stack.push({ node: item, key: String(i), parent: frame });
      }
    } else {
      const entries = Object.entries(node as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i]!;
        if (k === '$ref' && typeof v === 'string') {
          if (!v.startsWith('#')) out.push({ ref: v, pointer: pointerOf(frame) });
        } else if (typeof v === 'object' && v !== null) stack.push({ node: v, key: k, parent: frame });
      }
    }
  }
  return out;
}
