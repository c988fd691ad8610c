/**
 * @module
 * Compiles JSON Schema documents into ajv standalone ESM code at generation time.
 *
 * ajv is loaded lazily with `createRequire` (the emitter API is synchronous, and runs
 * that emit no validators should not pay for loading ajv). One Ajv instance per output
 * file: every schema document the file reaches is added once, then all exports are
 * compiled together so shared and recursive types become shared functions.
 */
import { createRequire } from 'node:module';
import type { JsonSchema } from '../json-schema/index.js';
import { FORMAT_TYPES, FORMATS_IDENTIFIER, RUNTIME_HELPERS, formatsSource } from './formats.js';
import { needsUnicodeFlag, UNICODE_ONLY } from '../../model/patterns.js';
import { COMPACT_FINGERPRINT, compactErrors, dropUnusedSchemas } from './compact.js';

/** The subset of ajv's API used here (ajv is CommonJS; typed loosely at this boundary). */
interface AjvInstance {
  addSchema(schema: object): AjvInstance;
  addFormat(name: string, format: object | boolean): AjvInstance;
  getSchema(ref: string): unknown;
}
interface AjvModule {
  default: new (options: object) => AjvInstance;
  _: (strings: TemplateStringsArray, ...values: unknown[]) => unknown;
}
type StandaloneCode = (ajv: AjvInstance, refs: Record<string, string>) => string;
/** What ajv's `code.process` hook is given besides the source: the schema being compiled. */
interface SchemaEnvLike {
  readonly root: { readonly baseId: string };
}

/** The body of a validation function that is only ever printed, never run (see `code.process`). */
const SOURCE_ONLY = 'return function sourceOnly() { throw new Error("compiled for its source only"); }';

const require = createRequire(import.meta.url);
let loaded: { Ajv: AjvModule; standalone: StandaloneCode } | undefined;

function loadAjv(): { Ajv: AjvModule; standalone: StandaloneCode } {
  if (!loaded) {
    // ajv's default (draft-07) class: it loads and compiles faster than the 2020-12 one, and
    // the documents use only keywords both dialects share (`$defs`, `$ref`, `type` arrays).
    const Ajv = require('ajv') as AjvModule;
    const standalone = (require('ajv/dist/standalone') as { default: StandaloneCode }).default;
    loaded = { Ajv, standalone };
  }
  return loaded;
}

/**
 * Loads ajv now rather than at the first compile: a worker thread calls it at start-up,
 * while the main thread is still loading schemas.
 *
 * @example
 * preloadAjv(); // later compileStandalone() calls find ajv loaded
 */
export function preloadAjv(): void {
  loadAjv();
}

/**
 * A key naming everything the compiled code depends on: the documents, the exports, the ajv
 * version and this module's own source (formats, options), so a cached result is never stale.
 * `documentsJson` is `input.documents` as JSON, when the caller has it already.
 */
export function compileCacheKey(input: CompileInput, documentsJson = JSON.stringify(input.documents)): string {
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const ajvVersion = (require('ajv/package.json') as { version: string }).version;
  const hash = createHash('sha256');
  hash.update(
    `loom-validators-1\0${ajvVersion}\0${formatsSource(Object.keys(FORMAT_TYPES))}\0${JSON.stringify(RUNTIME_HELPERS)}\0${compileStandalone.toString()}\0${dependencyOrder.toString()}\0${COMPACT_FINGERPRINT}\0${unicodePatterns.toString()}\0${needsUnicodeFlag.toString()}\0${UNICODE_ONLY.source}\0`,
  );
  hash.update(documentsJson);
  hash.update(JSON.stringify([...input.exports]));
  return hash.digest('hex');
}

export interface CompileInput {
  /** Schema documents, each with an `$id`, in a stable order. */
  readonly documents: readonly JsonSchema[];
  /** Export name → schema reference (`loom:issues/openapi.yaml#/$defs/Issue`), in output order. */
  readonly exports: ReadonlyMap<string, string>;
}

/**
 * ESM source exporting one validation function per entry of `exports`. Exports that point
 * at the same schema become aliases (ajv would print the function twice).
 *
 * @example
 * compileStandalone({ documents: [doc], exports: new Map([['validateIssue', 'loom:x#/$defs/Issue']]) });
 * // 'const loomFormats = …\nexport const validateIssue = validate10;\nfunction validate10(data, …) { … }'
 */
export function compileStandalone(input: CompileInput): string {
  const { Ajv, standalone } = loadAjv();
  const ours = new Set(input.documents.map((doc) => doc.$id));
  const ajv = new Ajv.default({
    code: {
      esm: true,
      source: true,
      lines: true,
      formats: codeName(Ajv, FORMATS_IDENTIFIER),
      // ajv evaluates every function it generates (`new Function`), to validate with it at once.
      // Here only the source is wanted, which ajv keeps before this hook runs: the documents'
      // functions are replaced by a stub that V8 parses in no time (Gitea's API: 221 functions,
      // a tenth of the compile). Ajv's meta-schema, which checks each added document, stays real.
      process: (source: string, env: SchemaEnvLike) => (ours.has(env.root.baseId) ? SOURCE_ONLY : source),
    },
    strict: false,
    allErrors: true,
    // OpenAPI's `discriminator` (without `mapping`; see json-schema/openapi.ts): the tag selects the
    // variant, whose errors alone are reported.
    discriminator: true,
    // One function per named type instead of copies inlined at every use: a third less
    // code and about half the compile time on large APIs (Gitea: 216 schemas).
    inlineRefs: false,
    // Patterns in real schemas are written for ECMA-262 without the `u` flag (`[\w-]`, `\/`),
    // which the `u` flag rejects.
    unicodeRegExp: false,
    // A property named like a member of `Object.prototype` (`constructor`, `toString`, `valueOf`)
    // is checked as an own property: otherwise `data.constructor !== undefined` holds for every
    // object, a required one is never missing and an object without it fails its type check.
    ownProperties: true,
    logger: false,
  });
  const used = new Set<string>();
  for (const doc of input.documents) collectFormats(doc, used);
  for (const name of used) {
    // Unknown formats (`password`, `binary`, …) are documentation: accept any value.
    const type = FORMAT_TYPES[name];
    ajv.addFormat(name, type ? { type, validate: () => true } : true);
  }
  // The draft-07 class does not know the 2020-12 meta-schema the documents name.
  for (const { $schema: _dialect, ...doc } of input.documents) ajv.addSchema(doc);

  const first = new Map<string, string>();
  const compiled: Record<string, string> = {};
  const aliases: string[] = [];
  // ajv exports only ASCII names (`validate商品` is refused); such exports are compiled under
  // `loomExport<n>` and renamed in the printed code, where any identifier is fine.
  const renamed = new Map<string, string>();
  for (const [name, ref] of input.exports) {
    const earlier = first.get(ref);
    if (earlier) aliases.push(`export const ${name} = ${renamed.get(earlier) ?? earlier};`);
    else {
      const compiledName = AJV_EXPORT_NAME.test(name) ? name : `loomExport${renamed.size}`;
      if (compiledName !== name) renamed.set(compiledName, name);
      first.set(ref, compiledName);
      compiled[compiledName] = ref;
    }
  }
  // Compiled leaves first: a type that ajv first meets through another type's `$ref` is
  // compiled under that reference, and asking for it later by its own name compiles it again
  // (Gitea's API: 266 functions for 220 types, a fifth of the time). Asked for in dependency
  // order, each is compiled once and every later `$ref` and export finds it.
  for (const ref of dependencyOrder(input.documents, Object.values(compiled))) ajv.getSchema(ref);
  let code = Object.keys(compiled).length > 0 ? standalone(ajv, compiled) : '';
  code = code.replace(/^"use strict";\n?/, '');
  const helpers: string[] = [];
  code = code.replace(/require\("([^"]+)"\)\.default/g, (_, module: string) => {
    const helper = RUNTIME_HELPERS[module];
    if (!helper) throw new Error(`ajv standalone code needs '${module}', which Loom does not inline yet`);
    if (!helpers.includes(helper.source)) helpers.push(helper.source);
    return helper.name;
  });
  if (code.includes('require(')) throw new Error('ajv standalone code still contains require(); cannot emit ESM');
  for (const [compiledName, name] of renamed) code = code.replace(`export const ${compiledName} = `, `export const ${name} = `);
  code = unicodePatterns(code);
  const compact = compactErrors(dropUnusedSchemas(code));
  if (compact.helper) helpers.push(compact.helper);
  return [formatsSource(used), ...helpers, compact.code.trim(), ...aliases].filter((s) => s !== '').join('\n');
}

/**
 * Gives the `u` flag to the patterns written for it (`generator/model/patterns.ts`); ajv compiles
 * every pattern with the flags of `unicodeRegExp` (off, above), as `new RegExp("…", "")`.
 */
function unicodePatterns(code: string): string {
  return code.replace(/new RegExp\(("(?:[^"\\]|\\.)*"), ""\)/g, (whole, literal: string) =>
    needsUnicodeFlag(JSON.parse(literal) as string) ? `new RegExp(${literal}, "u")` : whole,
  );
}

/** Export names ajv's standalone code accepts (`getEsmExportName`): ASCII identifiers. */
const AJV_EXPORT_NAME = /^[a-z$_][a-z$_0-9]*$/i;

/** Keywords whose values are data, not schemas: a `$ref` inside them is not a reference. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);
/** Keywords whose values map names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * `refs` and every schema they reach through `$ref`, each after what it references (post-order;
 * a cycle is cut where it closes). Only absolute references to `$defs` of the given documents
 * are followed; anything else is left for ajv to resolve (and report).
 *
 * @example
 * dependencyOrder([doc], ['loom:x#/$defs/Issue']); // ['loom:x#/$defs/User', 'loom:x#/$defs/Issue']
 */
export function dependencyOrder(documents: readonly JsonSchema[], refs: readonly string[]): string[] {
  const byId = new Map<string, JsonSchema>();
  for (const doc of documents) if (typeof doc.$id === 'string') byId.set(doc.$id, doc);
  const resolve = (ref: string): unknown => {
    const hash = ref.indexOf('#');
    let node: unknown = byId.get(ref.slice(0, hash));
    for (const segment of ref.slice(hash + 2).split('/')) {
      if (node === null || typeof node !== 'object') return undefined;
      node = (node as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return node;
  };
  // `schemaMap`: the node's values are schemas by name (`properties`), whatever their keys.
  const referencesIn = (node: unknown, base: string, out: string[], schemaMap = false): string[] => {
    if (Array.isArray(node)) for (const item of node) referencesIn(item, base, out);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (schemaMap) referencesIn(value, base, out);
        else if (key === '$ref' && typeof value === 'string') out.push(value.startsWith('#') ? base + value : value);
        else if (!DATA_KEYWORDS.has(key)) referencesIn(value, base, out, SCHEMA_MAPS.has(key));
      }
    }
    return out;
  };
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (ref: string) => {
    if (seen.has(ref)) return;
    seen.add(ref);
    const hash = ref.indexOf('#');
    if (hash < 0 || !ref.startsWith('#/', hash)) return;
    const schema = resolve(ref);
    if (schema === undefined) return;
    for (const inner of referencesIn(schema, ref.slice(0, hash), [])) visit(inner);
    order.push(ref);
  };
  for (const ref of refs) visit(ref);
  return order;
}

/** A bare identifier as ajv code (interpolating a string into `_` would quote it). */
function codeName(Ajv: AjvModule, name: string): unknown {
  return Ajv._(Object.assign([name], { raw: [name] }));
}

function collectFormats(schema: unknown, out: Set<string>): void {
  if (Array.isArray(schema)) {
    for (const item of schema) collectFormats(item, out);
  } else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'format' && typeof value === 'string') out.add(value);
      else collectFormats(value, out);
    }
  }
}
