/**
 * @module
 * Loom's validator compiler: JSON Schema documents (the subset the generator writes, see
 * `json-schema/`) in, plain ESM source out, one function per `$defs` entry a file exports or
 * reaches. It replaced ajv's standalone code, which took most of a run on large APIs (GitHub's:
 * 20 s of compiling and 25 MB of code for a 13 MB description) and could only inline what other
 * files declare.
 *
 * What the code does is what ajv's does with Loom's options (`allErrors`, `ownProperties`,
 * `discriminator`, unknown formats accepted, patterns without the `u` flag unless written for
 * it): the same keywords in the same order, the same error objects (`instancePath`,
 * `schemaPath`, `keyword`, `params`, `message`, and `propertyName` inside `propertyNames`). Two
 * differences, both on purpose:
 * - a `$ref` into another file's document calls that file's exported validator (imported), so a
 *   type's code exists once however many files use it;
 * - a run records at most {@link MAX_ERRORS} errors, then stops checking and ends the list with one
 *   `truncated` error: a body of 100,000 bad values costs 100 error objects, not 100,000.
 */
import { needsUnicodeFlag } from '../../model/patterns.js';
import type { JsonSchema } from '../json-schema/index.js';
import { ONE_MEMBER, ONE_NAME_EACH } from '../json-schema/proto-json.js';
import { FORMAT_TYPES, formatsSource, RUNTIME_HELPERS } from './formats.js';

/** The most errors one validation records before it stops (and says so). */
export const MAX_ERRORS = 100;

export interface CompileInput {
  /** Schema documents, each with an `$id`; the first is the file's own, the only one compiled. */
  readonly documents: readonly JsonSchema[];
  /** Export name → schema reference (`loom:issues/openapi.yaml#/$defs/Issue`), in output order. */
  readonly exports: ReadonlyMap<string, string>;
}

/** A validator of another file that the compiled code calls: printed as `__loomExternal<index>__`, to be replaced by its import. */
export interface ExternalValidator {
  /** `loom:common.yaml`: the `$id` of the document that declares it. */
  readonly documentId: string;
  /** `validatePerson`: its export name in that file's validators. */
  readonly name: string;
}

/** The code, and the validators of other files it calls (by placeholder index). */
export interface CompiledValidators {
  readonly code: string;
  readonly externals: readonly ExternalValidator[];
}

/** The placeholder for external validator `index` in compiled code. */
export function externalPlaceholder(index: number): string {
  return `__loomExternal${index}__`;
}

/** Keywords that say nothing about validity: a `$ref` beside only these is a plain reference. */
const ANNOTATIONS: ReadonlySet<string> = new Set([
  '$ref',
  '$id',
  '$schema',
  '$defs',
  '$comment',
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'example',
  'discriminator',
]);

const NUMBER_KEYWORDS = ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf'] as const;
const STRING_KEYWORDS = ['maxLength', 'minLength', 'pattern'] as const;
const ARRAY_KEYWORDS = ['maxItems', 'minItems', 'uniqueItems', 'items'] as const;
const OBJECT_KEYWORDS = [
  'required',
  ONE_NAME_EACH,
  ONE_MEMBER,
  'maxProperties',
  'minProperties',
  'propertyNames',
  'additionalProperties',
  'properties',
] as const;

const COMPARISON: Readonly<Record<string, string>> = { maximum: '<=', minimum: '>=', exclusiveMaximum: '<', exclusiveMinimum: '>' };

/** The helpers compiled code calls, printed once per file when used. */
const HELPERS: Readonly<Record<string, string>> = {
  E:
    `/** Records one error (ajv's error object) in \`e\`, up to ${MAX_ERRORS}; ` +
    `past that marks the list truncated, which stops the checks. */
function E(e, instancePath, schemaPath, keyword, params, message) {
  if (e.length < ${MAX_ERRORS}) e.push({ instancePath, schemaPath, keyword, params, message });
  else e.truncated = true;
}`,
  T: `/** A \`type\` error. */
function T(e, p, s, type) {
  E(e, p, s, 'type', { type }, 'must be ' + type);
}`,
  R: `/** A \`required\` error. */
function R(e, p, s, missingProperty) {
  E(e, p, s, 'required', { missingProperty }, "must have required property '" + missingProperty + "'");
}`,
  A: `/** An \`additionalProperties\` error. */
function A(e, p, s, additionalProperty) {
  E(e, p, s, 'additionalProperties', { additionalProperty }, 'must NOT have additional properties');
}`,
  N: `/** An \`enum\` error. */
function N(e, p, s, allowedValues) {
  E(e, p, s, 'enum', { allowedValues }, 'must be equal to one of the allowed values');
}`,
  F: `/** A \`format\` error. */
function F(e, p, s, format) {
  E(e, p, s, 'format', { format }, 'must match format "' + format + '"');
}`,
  K: `/** A JSON Pointer segment of a property name. */
function K(key) {
  return key.replace(/~/g, '~0').replace(/\\//g, '~1');
}`,
  H: `const H = Object.prototype.hasOwnProperty;`,
  P: `/** An own property's value, or undefined. */
function P(o, k) {
  return H.call(o, k) ? o[k] : undefined;
}`,
  M: `/** Appends the errors of a branch that failed, as far as the cap allows. */
function M(e, list) {
  for (const x of list) {
    if (e.length < ${MAX_ERRORS}) e.push(x);
    else e.truncated = true;
  }
  if (list.truncated) e.truncated = true;
}`,
  U: `/** The indices of two equal items (the last such pair), or undefined. */
function U(items) {
  const seen = new Map();
  for (let i = items.length; i--; ) {
    const item = items[i];
    if (item === null || typeof item !== 'object') {
      const key = typeof item + ':' + String(item);
      const j = seen.get(key);
      if (j !== undefined) return [i, j];
      seen.set(key, i);
    } else for (let j = i; j--; ) if (deepEqual(item, items[j])) return [i, j];
  }
  return undefined;
}`,
  Y:
    `/** An error for each field given under two of its names (\`names\`: per field, the names a reader accepts). */
function Y(e, d, p, s, names) {
  for (const field of names) {
    let first;
    for (const k of field) {
      if (d[k] === undefined || !H.call(d, k)) continue;
      if (first === undefined) first = k;
      else {
        E(e, p, s, '${ONE_NAME_EACH}', { names: [first, k] }, ` +
    `"must give a field under one of its names, not both '" + first + "' and '" + k + "'");
        break;
      }
    }
  }
}`,
  Z: `/** An error for each oneof two of whose members are set (present and not null), under any of their names. */
function Z(e, d, p, s, oneofs) {
  for (const members of oneofs) {
    let first;
    for (const names of members) {
      const k = names.find((n) => d[n] !== undefined && d[n] !== null && H.call(d, n));
      if (k === undefined) continue;
      if (first === undefined) first = k;
      else {
        E(e, p, s, '${ONE_MEMBER}', { members: [first, k] }, "must set one member of a oneof, not both '" + first + "' and '" + k + "'");
        break;
      }
    }
  }
}`,
  X:
    `/** A validator as callers use it: a guard that leaves its errors on \`errors\`; \`check\` is what other validators call. */
function X(check) {
  const validate = (data) => {
    const e = [];
    check(data, '', e);
    if (e.truncated) e.push({ instancePath: '', schemaPath: '#', keyword: 'truncated', params: { limit: ${MAX_ERRORS} }, ` +
    `message: 'has more problems than the first ${MAX_ERRORS}, which are reported' });
    validate.errors = e.length === 0 ? null : e;
    return e.length === 0;
  };
  validate.errors = null;
  validate.check = check;
  return validate;
}`,
};

/** Helpers a helper calls. */
const HELPER_NEEDS: Readonly<Record<string, readonly string[]>> = {
  T: ['E'],
  R: ['E'],
  A: ['E'],
  N: ['E'],
  F: ['E'],
  U: ['deepEqual'],
  P: ['H'],
  Y: ['E', 'H'],
  Z: ['E', 'H'],
};

/**
 * ESM source exporting one validator per entry of `exports`. Exports that point at the same schema
 * share one function.
 *
 * @example
 * compileValidators({ documents: [doc], exports: new Map([['validateIssue', 'loom:x#/$defs/Issue']]) });
 * // { code: 'function v0(d, p, e) { … }\nexport const validateIssue = X(v0);', externals: [] }
 */
export function compileValidators(input: CompileInput): CompiledValidators {
  const own = input.documents[0];
  if (own === undefined) return { code: '', externals: [] };
  return new Compiler(own).compile(input.exports);
}

/** Keywords whose values are schemas, and those whose values are maps or lists of schemas. */
const SUBSCHEMA = ['items', 'additionalProperties', 'not', 'if', 'then', 'propertyNames'] as const;
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;

/** Indentation levels past which an inline subschema gets a function of its own. */
const SPILL_DEPTH = 24;

/** A subschema this many JSON nodes large or larger, met twice or more, gets a function of its own. */
const SHARED_WEIGHT = 12;

/**
 * Gives equal JSON values one number (hash-consing, bottom-up, so each node is visited once), to
 * find the subschemas a document repeats: large descriptions repeat whole inline objects (GitHub's
 * inlines the same pull request object in dozens of webhooks).
 */
class Interner {
  readonly #ids = new Map<string, number>();
  readonly #known = new WeakMap<object, number>();
  /** JSON nodes per id. */
  readonly weights: number[] = [];

  id(value: unknown): number {
    if (value === null || typeof value !== 'object') return this.#intern(`p${JSON.stringify(value)}`, 1);
    const known = this.#known.get(value);
    if (known !== undefined) return known;
    let key: string;
    let weight = 1;
    if (Array.isArray(value)) {
      const ids = value.map((v) => this.id(v));
      for (const i of ids) weight += this.weights[i]!;
      key = `a${ids.join(',')}`;
    } else {
      key = 'o';
      for (const [k, v] of Object.entries(value)) {
        const i = this.id(v);
        weight += this.weights[i]!;
        key += `${JSON.stringify(k)}:${i},`;
      }
    }
    const id = this.#intern(key, weight);
    this.#known.set(value, id);
    return id;
  }

  #intern(key: string, weight: number): number {
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.weights.length;
      this.#ids.set(key, id);
      this.weights.push(weight);
    }
    return id;
  }
}

/** Every subschema of `schema` (not `schema` itself), as `visit` sees them, depth first. */
function forEachSubschema(schema: unknown, visit: (sub: unknown) => void): void {
  if (!isObject(schema)) return;
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isObject(node)) continue;
    const children: unknown[] = [];
    for (const key of SUBSCHEMA) if (node[key] !== undefined) children.push(node[key]);
    for (const key of SUBSCHEMA_LISTS) if (Array.isArray(node[key])) children.push(...(node[key] as unknown[]));
    if (isObject(node.properties)) children.push(...Object.values(node.properties));
    for (const child of children) {
      visit(child);
      stack.push(child);
    }
  }
}

/** One file's compilation: the functions, constants and helpers it needs. */
class Compiler {
  readonly #doc: JsonSchema;
  readonly #id: string;
  /** `$defs` key → function name. */
  readonly #functions = new Map<string, string>();
  /** Definitions still to compile, in the order first reached. */
  readonly #queue: string[] = [];
  readonly #bodies: string[] = [];
  readonly #constants: string[] = [];
  readonly #constantNames = new Map<string, string>();
  readonly #helpers = new Set<string>();
  readonly #formats = new Set<string>();
  readonly #externals: ExternalValidator[] = [];
  readonly #externalIndex = new Map<string, number>();
  readonly #interner = new Interner();
  /** Subschema id → the function that checks it: the `$defs` entry equal to it, or a shared function. */
  readonly #sharedById = new Map<number, string>();
  /** Ids met twice or more, large enough to share. */
  readonly #repeated = new Set<number>();
  /** Shared subschemas (not `$defs` entries) by function name, to compile. */
  readonly #sharedSchemas = new Map<string, unknown>();
  #names = 0;

  constructor(doc: JsonSchema) {
    this.#doc = doc;
    this.#id = String(doc.$id ?? '');
  }

  compile(exports: ReadonlyMap<string, string>): CompiledValidators {
    this.#findRepeats();
    const lines: string[] = [];
    // Exports of the same schema share one validator: the later ones are aliases of the first.
    const first = new Map<string, string>();
    for (const [name, ref] of exports) {
      const earlier = first.get(ref);
      if (earlier === undefined) first.set(ref, name);
      lines.push(`export const ${name} = ${earlier ?? this.#exported(ref)};`);
    }
    // Compiling a function reaches others: the queue grows while it is walked.
    for (let i = 0; i < this.#queue.length; i++) this.#compileDefinition(this.#queue[i]!);
    if (lines.length > 0) this.#use('X');
    const helpers = this.#helperSources();
    const code = [formatsSource(this.#formats), ...helpers, ...this.#constants, ...this.#bodies, ...lines]
      .filter((s) => s !== '')
      .join('\n');
    return { code, externals: this.#externals };
  }

  /**
   * The subschemas the document repeats: each is compiled once, as a function of its own, and called
   * wherever it appears. One equal to a whole `$defs` entry calls that entry's function.
   */
  #findRepeats(): void {
    const defs = isObject(this.#doc.$defs) ? this.#doc.$defs : {};
    const seen = new Map<number, number>();
    for (const schema of Object.values(defs)) {
      forEachSubschema(schema, (sub) => {
        if (!isObject(sub)) return;
        const id = this.#interner.id(sub);
        if (this.#interner.weights[id]! < SHARED_WEIGHT) return;
        const count = (seen.get(id) ?? 0) + 1;
        seen.set(id, count);
        if (count === 2) this.#repeated.add(id);
      });
    }
    for (const [key, schema] of Object.entries(defs)) {
      if (!isObject(schema)) continue;
      const id = this.#interner.id(schema);
      if (this.#repeated.has(id) && !this.#sharedById.has(id)) this.#sharedById.set(id, this.#functionFor(`#/$defs/${escapePointer(key)}`));
    }
  }

  /** The function checking a repeated subschema (compiled once), or undefined for one that appears once. */
  #sharedFunction(schema: JsonSchema): string | undefined {
    if (this.#repeated.size === 0) return undefined;
    const id = this.#interner.id(schema);
    if (!this.#repeated.has(id)) return undefined;
    let name = this.#sharedById.get(id);
    if (name === undefined) {
      name = `s${this.#sharedSchemas.size}`;
      this.#sharedById.set(id, name);
      this.#sharedSchemas.set(name, schema);
      this.#queue.push(`shared:${name}`);
    }
    return name;
  }

  /** A function of its own for a subschema nested deep in another. */
  #spill(schema: JsonSchema): string {
    const name = `s${this.#sharedSchemas.size}`;
    this.#sharedSchemas.set(name, schema);
    this.#queue.push(`shared:${name}`);
    return name;
  }

  /** The expression an export is: a local validator, or another file's (re-exported). */
  #exported(ref: string): string {
    const external = this.#external(ref);
    if (external !== undefined) return external.replace(/\.check$/, '');
    return `X(${this.#functionFor(ref)})`;
  }

  /** The call target of another file's validator, or undefined when `ref` is in this document. */
  #external(ref: string): string | undefined {
    const hash = ref.indexOf('#');
    const id = hash < 0 ? ref : ref.slice(0, hash);
    if (id === '' || id === this.#id) return undefined;
    const key = ref.slice(hash + 1);
    const m = /^\/\$defs\/([^/]+)$/.exec(key);
    if (!m) throw new Error(`cannot compile a reference into another document other than to one of its $defs: ${ref}`);
    let index = this.#externalIndex.get(ref);
    if (index === undefined) {
      index = this.#externals.length;
      this.#externals.push({ documentId: id, name: `validate${unescapePointer(m[1]!)}` });
      this.#externalIndex.set(ref, index);
    }
    return `${externalPlaceholder(index)}.check`;
  }

  /** The local function of a reference into this document (`#/$defs/Issue` or `loom:x#/$defs/Issue`). */
  #functionFor(ref: string): string {
    const key = ref.slice(ref.indexOf('#') + 1);
    let name = this.#functions.get(key);
    if (name === undefined) {
      name = `v${this.#functions.size}`;
      this.#functions.set(key, name);
      this.#queue.push(key);
    }
    return name;
  }

  #compileDefinition(key: string): void {
    const sharedName = key.startsWith('shared:') ? key.slice('shared:'.length) : undefined;
    const schema = sharedName !== undefined ? this.#sharedSchemas.get(sharedName) : resolvePointer(this.#doc, key);
    if (schema === undefined) throw new Error(`can't resolve reference #${key} from id ${this.#id}`);
    const name = sharedName ?? this.#functions.get(key)!;
    this.#names = 0;
    const body = this.#schema(schema, 'd', 'p', '#', 1, true);
    this.#bodies.push(`function ${name}(d, p, e) {\n${body}}`);
  }

  #name(prefix: string): string {
    return `${prefix}${this.#names++}`;
  }

  #use(helper: string): void {
    if (this.#helpers.has(helper)) return;
    this.#helpers.add(helper);
    for (const need of HELPER_NEEDS[helper] ?? []) this.#use(need);
  }

  #helperSources(): string[] {
    const out: string[] = [];
    if (this.#helpers.has('deepEqual')) out.push(RUNTIME_HELPERS['ajv/dist/runtime/equal']!.source);
    if (this.#helpers.has('ucs2length')) out.push(RUNTIME_HELPERS['ajv/dist/runtime/ucs2length']!.source);
    for (const [name, source] of Object.entries(HELPERS)) if (this.#helpers.has(name)) out.push(source);
    return out;
  }

  /** A module-level constant holding `value` (enum lists, patterns), shared by every use of the same text. */
  #constant(prefix: string, source: string): string {
    let name = this.#constantNames.get(source);
    if (name === undefined) {
      name = `${prefix}${this.#constantNames.size}`;
      this.#constantNames.set(source, name);
      this.#constants.push(`const ${name} = ${source};`);
    }
    return name;
  }

  /**
   * The statements checking the value in variable `d` against `schema`: `p` is the expression of its
   * instance path, `s` its schema path, `depth` the indentation.
   */
  #schema(schema: unknown, d: string, p: string, s: string, depth: number, root = false): string {
    if (schema === true || schema === undefined) return '';
    const pad = ' '.repeat(depth);
    if (schema === false) return `${pad}E(e, ${p}, ${str(s)}, 'false schema', {}, 'boolean schema is false');\n`;
    if (!isObject(schema)) throw new Error(`a schema must be an object or a boolean, found ${JSON.stringify(schema)}`);
    if (!root) {
      // A subschema the document repeats is checked by its own function, as a `$ref` is; so is one
      // nested deep, which keeps functions (and this compiler's own recursion) shallow.
      const shared = this.#sharedFunction(schema) ?? (depth > SPILL_DEPTH ? this.#spill(schema) : undefined);
      if (shared !== undefined) return `${pad}${shared}(${d}, ${p}, e);\n`;
    }
    checkKeywords(schema);
    const keys = Object.keys(schema);
    if (typeof schema.$ref === 'string' && keys.every((k) => ANNOTATIONS.has(k))) return this.#ref(schema.$ref, d, p, depth);
    let out = '';
    const types = typeList(schema);
    const single = types.length === 1 ? types[0]! : undefined;
    // ajv checks a single type where that type's keywords are (`if (string) { … } else error`) when
    // the schema has some; any other `type` is checked first.
    const groupOf: Record<string, boolean> = {
      number: this.#hasGroup(schema, 'number'),
      string: this.#hasGroup(schema, 'string'),
      array: this.#hasGroup(schema, 'array'),
      object: this.#hasGroup(schema, 'object'),
    };
    const merged = single !== undefined && groupOf[single] === true;
    if (types.length > 0 && !merged) {
      this.#use('T');
      out += `${pad}if (${typeCheck(types, d, false)}) T(e, ${p}, ${str(`${s}/type`)}, ${str(String(schema.type))});\n`;
    }
    out += this.#untyped(schema, d, p, s, depth);
    for (const group of ['number', 'string', 'array', 'object'] as const) {
      if (!groupOf[group]) continue;
      const inner = this.#group(group, schema, d, p, s, depth + 1);
      out += `${pad}if (${typeCheck([group], d, true)}) {\n${inner}${pad}}`;
      if (merged && single === group) {
        this.#use('T');
        out += ` else T(e, ${p}, ${str(`${s}/type`)}, ${str(String(schema.type))});\n`;
      } else out += '\n';
    }
    return out;
  }

  #hasGroup(schema: JsonSchema, group: 'number' | 'string' | 'array' | 'object'): boolean {
    switch (group) {
      case 'number':
        return NUMBER_KEYWORDS.some((k) => schema[k] !== undefined) || formatType(schema) === 'number';
      case 'string':
        return STRING_KEYWORDS.some((k) => schema[k] !== undefined) || formatType(schema) === 'string';
      case 'array':
        return ARRAY_KEYWORDS.some((k) => schema[k] !== undefined);
      case 'object':
        return OBJECT_KEYWORDS.some((k) => schema[k] !== undefined) || (isObject(schema.discriminator) && Array.isArray(schema.oneOf));
    }
  }

  /** A call of the validator of a `$ref`. */
  #ref(ref: string, d: string, p: string, depth: number): string {
    const pad = ' '.repeat(depth);
    const external = this.#external(ref);
    const target = external ?? this.#functionFor(ref.startsWith('#') ? `${this.#id}${ref}` : ref);
    return `${pad}${target}(${d}, ${p}, e);\n`;
  }

  /** Keywords for any type: `$ref`, `const`, `enum`, `not`, `anyOf`, `oneOf`, `allOf`, `if`. */
  #untyped(schema: JsonSchema, d: string, p: string, s: string, depth: number): string {
    const pad = ' '.repeat(depth);
    let out = '';
    if (typeof schema.$ref === 'string') out += this.#ref(schema.$ref, d, p, depth);
    if (schema.const !== undefined) {
      const value = JSON.stringify(schema.const);
      const deep = schema.const !== null && typeof schema.const === 'object';
      if (deep) this.#use('deepEqual');
      const test = deep ? `!deepEqual(${d}, ${value})` : `${d} !== ${value}`;
      this.#use('E');
      out += `${pad}if (${test}) E(e, ${p}, ${str(`${s}/const`)}, 'const', { allowedValue: ${value} }, 'must be equal to constant');\n`;
    }
    if (Array.isArray(schema.enum)) {
      const values = schema.enum as unknown[];
      const list = this.#constant('enum', JSON.stringify(values));
      this.#use('N');
      const objects = values.some((v) => v !== null && typeof v === 'object');
      if (objects) this.#use('deepEqual');
      const test =
        values.length <= 4 && !objects
          ? values.map((v) => `${d} !== ${JSON.stringify(v)}`).join(' && ') || 'true'
          : objects
            ? `!${list}.some((v) => deepEqual(${d}, v))`
            : `!${list}.includes(${d})`;
      out += `${pad}if (${test}) N(e, ${p}, ${str(`${s}/enum`)}, ${list});\n`;
    }
    if (schema.not !== undefined) {
      const sub = this.#name('n');
      this.#use('E');
      out += `${pad}{\n${pad}  const ${sub} = [];\n${this.#withErrors(schema.not, d, p, `${s}/not`, depth + 1, sub)}`;
      out += `${pad}  if (${sub}.length === 0) E(e, ${p}, ${str(`${s}/not`)}, 'not', {}, 'must NOT be valid');\n${pad}}\n`;
    }
    if (Array.isArray(schema.anyOf)) out += this.#anyOf(schema.anyOf, d, p, s, depth);
    if (Array.isArray(schema.oneOf) && !isObject(schema.discriminator)) out += this.#oneOf(schema.oneOf, d, p, s, depth);
    if (Array.isArray(schema.allOf)) {
      schema.allOf.forEach((part, i) => {
        out += this.#schema(part, d, p, `${s}/allOf/${i}`, depth);
      });
    }
    if (schema.if !== undefined && schema.then !== undefined) {
      const cond = this.#name('c');
      this.#use('E');
      out += `${pad}{\n${pad}  const ${cond} = [];\n${this.#withErrors(schema.if, d, p, `${s}/if`, depth + 1, cond)}`;
      out +=
        `${pad}  if (${cond}.length === 0) {\n${pad}    const n = e.length;\n` +
        `${this.#schema(schema.then, d, p, `${s}/then`, depth + 2)}`;
      out +=
        `${pad}    if (e.length > n) E(e, ${p}, ${str(`${s}/if`)}, 'if', { failingKeyword: 'then' }, 'must match "then" schema');\n` +
        `${pad}  }\n${pad}}\n`;
    }
    return out;
  }

  /** The checks of `schema` recording into the list `list` rather than `e`. */
  #withErrors(schema: unknown, d: string, p: string, s: string, depth: number, list: string): string {
    const pad = ' '.repeat(depth);
    return `${pad}{\n${pad}  const e = ${list};\n${this.#schema(schema, d, p, s, depth + 1)}${pad}}\n`;
  }

  #anyOf(branches: unknown[], d: string, p: string, s: string, depth: number): string {
    const pad = ' '.repeat(depth);
    const ok = this.#name('a');
    const errs = this.#name('ae');
    this.#use('E');
    let out = `${pad}{\n${pad}  let ${ok} = false;\n${pad}  const ${errs} = [];\n`;
    branches.forEach((branch, i) => {
      const list = this.#name('b');
      out += `${pad}  if (!${ok}) {\n${pad}    const ${list} = [];\n${this.#withErrors(branch, d, p, `${s}/anyOf/${i}`, depth + 2, list)}`;
      out += `${pad}    if (${list}.length === 0) ${ok} = true;\n${pad}    else M(${errs}, ${list});\n${pad}  }\n`;
    });
    this.#use('M');
    out += `${pad}  if (!${ok}) {\n${pad}    M(e, ${errs});\n`;
    out += `${pad}    E(e, ${p}, ${str(`${s}/anyOf`)}, 'anyOf', {}, 'must match a schema in anyOf');\n${pad}  }\n${pad}}\n`;
    return out;
  }

  #oneOf(branches: unknown[], d: string, p: string, s: string, depth: number): string {
    const pad = ' '.repeat(depth);
    const passing = this.#name('o');
    const errs = this.#name('oe');
    this.#use('E');
    let out = `${pad}{\n${pad}  const ${passing} = [];\n${pad}  const ${errs} = [];\n`;
    branches.forEach((branch, i) => {
      const list = this.#name('b');
      out += `${pad}  {\n${pad}    const ${list} = [];\n${this.#withErrors(branch, d, p, `${s}/oneOf/${i}`, depth + 2, list)}`;
      out += `${pad}    if (${list}.length === 0) ${passing}.push(${i});\n${pad}    else M(${errs}, ${list});\n${pad}  }\n`;
    });
    this.#use('M');
    out += `${pad}  if (${passing}.length !== 1) {\n${pad}    M(e, ${errs});\n`;
    out +=
      `${pad}    E(e, ${p}, ${str(`${s}/oneOf`)}, 'oneOf', { passingSchemas: ${passing}.length === 0 ? null : ${passing}.slice(0, 2) }, ` +
      `'must match exactly one schema in oneOf');\n${pad}  }\n${pad}}\n`;
    return out;
  }

  /** The keywords of one type group, inside that type's check. */
  #group(group: 'number' | 'string' | 'array' | 'object', schema: JsonSchema, d: string, p: string, s: string, depth: number): string {
    switch (group) {
      case 'number':
        return this.#numberKeywords(schema, d, p, s, depth);
      case 'string':
        return this.#stringKeywords(schema, d, p, s, depth);
      case 'array':
        return this.#arrayKeywords(schema, d, p, s, depth);
      case 'object':
        return this.#objectKeywords(schema, d, p, s, depth);
    }
  }

  #numberKeywords(schema: JsonSchema, d: string, p: string, s: string, depth: number): string {
    const pad = ' '.repeat(depth);
    let out = '';
    for (const keyword of ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum'] as const) {
      const limit = schema[keyword];
      if (typeof limit !== 'number') continue;
      const op = COMPARISON[keyword]!;
      this.#use('E');
      out +=
        `${pad}if (!(${d} ${op} ${limit})) E(e, ${p}, ${str(`${s}/${keyword}`)}, '${keyword}', ` +
        `{ comparison: '${op}', limit: ${limit} }, 'must be ${op} ${limit}');\n`;
    }
    if (typeof schema.multipleOf === 'number') {
      const m = schema.multipleOf;
      this.#use('E');
      out +=
        `${pad}if (${d} / ${m} !== parseInt(${d} / ${m})) E(e, ${p}, ${str(`${s}/multipleOf`)}, 'multipleOf', ` +
        `{ multipleOf: ${m} }, 'must be multiple of ${m}');\n`;
    }
    if (formatType(schema) === 'number') out += this.#format(schema.format as string, d, p, s, pad);
    return out;
  }

  #stringKeywords(schema: JsonSchema, d: string, p: string, s: string, depth: number): string {
    const pad = ' '.repeat(depth);
    let out = '';
    for (const keyword of ['maxLength', 'minLength'] as const) {
      const limit = schema[keyword];
      if (typeof limit !== 'number') continue;
      this.#use('ucs2length');
      this.#use('E');
      const [op, word] = keyword === 'maxLength' ? ['>', 'more'] : ['<', 'fewer'];
      out +=
        `${pad}if (ucs2length(${d}) ${op} ${limit}) E(e, ${p}, ${str(`${s}/${keyword}`)}, '${keyword}', ` +
        `{ limit: ${limit} }, 'must NOT have ${word} than ${limit} characters');\n`;
    }
    if (typeof schema.pattern === 'string') {
      const pattern = schema.pattern;
      const regex = this.#constant('pattern', `new RegExp(${JSON.stringify(pattern)}, ${needsUnicodeFlag(pattern) ? '"u"' : '""'})`);
      this.#use('E');
      out +=
        `${pad}if (!${regex}.test(${d})) E(e, ${p}, ${str(`${s}/pattern`)}, 'pattern', { pattern: ${JSON.stringify(pattern)} }, ` +
        `${str(`must match pattern "${pattern}"`)});\n`;
    }
    if (formatType(schema) === 'string') out += this.#format(schema.format as string, d, p, s, pad);
    return out;
  }

  #format(format: string, d: string, p: string, s: string, pad: string): string {
    this.#formats.add(format);
    this.#use('F');
    return (
      `${pad}if (!loomFormats[${JSON.stringify(format)}].validate(${d})) ` +
      `F(e, ${p}, ${str(`${s}/format`)}, ${JSON.stringify(format)});\n`
    );
  }

  #arrayKeywords(schema: JsonSchema, d: string, p: string, s: string, depth: number): string {
    const pad = ' '.repeat(depth);
    let out = '';
    for (const keyword of ['maxItems', 'minItems'] as const) {
      const limit = schema[keyword];
      if (typeof limit !== 'number') continue;
      this.#use('E');
      const [op, word] = keyword === 'maxItems' ? ['>', 'more'] : ['<', 'fewer'];
      out +=
        `${pad}if (${d}.length ${op} ${limit}) E(e, ${p}, ${str(`${s}/${keyword}`)}, '${keyword}', ` +
        `{ limit: ${limit} }, 'must NOT have ${word} than ${limit} items');\n`;
    }
    if (schema.uniqueItems === true) {
      const pair = this.#name('u');
      this.#use('U');
      this.#use('E');
      out += `${pad}{\n${pad}  const ${pair} = U(${d});\n`;
      out +=
        `${pad}  if (${pair} !== undefined) E(e, ${p}, ${str(`${s}/uniqueItems`)}, 'uniqueItems', { i: ${pair}[0], j: ${pair}[1] }, ` +
        `'must NOT have duplicate items (items ## ' + ${pair}[1] + ' and ' + ${pair}[0] + ' are identical)');\n${pad}}\n`;
    }
    if (schema.items !== undefined && schema.items !== true && !(isObject(schema.items) && Object.keys(schema.items).length === 0)) {
      const i = this.#name('i');
      const item = this.#name('d');
      const itemPath = this.#name('p');
      // Stops once the errors are capped: a long array of bad values costs no more than a short one.
      out +=
        `${pad}for (let ${i} = 0; ${i} < ${d}.length && !e.truncated; ${i}++) {\n` +
        `${pad}  const ${item} = ${d}[${i}];\n${pad}  const ${itemPath} = ${p} + '/' + ${i};\n`;
      out += this.#schema(schema.items, item, itemPath, `${s}/items`, depth + 1);
      out += `${pad}}\n`;
    }
    return out;
  }

  #objectKeywords(schema: JsonSchema, d: string, p: string, s: string, depth: number): string {
    const pad = ' '.repeat(depth);
    let out = '';
    if (Array.isArray(schema.required) && schema.required.length > 0) {
      this.#use('R');
      this.#use('H');
      for (const name of schema.required as string[]) {
        const key = JSON.stringify(name);
        out += `${pad}if (${d}[${key}] === undefined || !H.call(${d}, ${key})) R(e, ${p}, ${str(`${s}/required`)}, ${key});\n`;
      }
    }
    if (Array.isArray(schema[ONE_NAME_EACH])) {
      this.#use('Y');
      out +=
        `${pad}Y(e, ${d}, ${p}, ${str(`${s}/${ONE_NAME_EACH}`)}, ` +
        `${this.#constant('names', JSON.stringify(schema[ONE_NAME_EACH]))});\n`;
    }
    if (Array.isArray(schema[ONE_MEMBER])) {
      this.#use('Z');
      out += `${pad}Z(e, ${d}, ${p}, ${str(`${s}/${ONE_MEMBER}`)}, ${this.#constant('oneofs', JSON.stringify(schema[ONE_MEMBER]))});\n`;
    }
    for (const keyword of ['maxProperties', 'minProperties'] as const) {
      const limit = schema[keyword];
      if (typeof limit !== 'number') continue;
      this.#use('E');
      const [op, word] = keyword === 'maxProperties' ? ['>', 'more'] : ['<', 'fewer'];
      out +=
        `${pad}if (Object.keys(${d}).length ${op} ${limit}) E(e, ${p}, ${str(`${s}/${keyword}`)}, '${keyword}', ` +
        `{ limit: ${limit} }, 'must NOT have ${word} than ${limit} properties');\n`;
    }
    if (schema.propertyNames !== undefined) out += this.#propertyNames(schema.propertyNames, d, p, s, depth);
    const properties = isObject(schema.properties) ? schema.properties : {};
    const additional = schema.additionalProperties;
    if (additional !== undefined && additional !== true && !(isObject(additional) && Object.keys(additional).length === 0)) {
      const key = this.#name('k');
      const known = Object.keys(properties);
      const test =
        known.length === 0
          ? 'true'
          : known.length <= 8
            ? known.map((k) => `${key} !== ${JSON.stringify(k)}`).join(' && ')
            : `!${this.#constant('keys', `new Set(${JSON.stringify(known)})`)}.has(${key})`;
      out += `${pad}for (const ${key} of Object.keys(${d})) {\n${pad}  if (e.truncated) break;\n`;
      if (additional === false) {
        this.#use('A');
        out += `${pad}  if (${test}) A(e, ${p}, ${str(`${s}/additionalProperties`)}, ${key});\n`;
      } else {
        this.#use('K');
        const value = this.#name('d');
        const valuePath = this.#name('p');
        out += `${pad}  if (${test}) {\n${pad}    const ${value} = ${d}[${key}];\n${pad}    const ${valuePath} = ${p} + '/' + K(${key});\n`;
        out += this.#schema(additional, value, valuePath, `${s}/additionalProperties`, depth + 2);
        out += `${pad}  }\n`;
      }
      out += `${pad}}\n`;
    }
    // The properties present (own, not undefined) are read into variables first, in one statement.
    const reads: string[] = [];
    let checks = '';
    for (const [name, sub] of Object.entries(properties)) {
      if (sub === true || (isObject(sub) && Object.keys(sub).every((k) => ANNOTATIONS.has(k) && k !== '$ref'))) continue;
      const value = this.#name('d');
      const path = `${p} + ${str(`/${escapePointer(name)}`)}`;
      const inner = this.#schema(sub, value, path, `${s}/properties/${escapePointer(name)}`, depth + 1);
      if (inner === '') continue;
      reads.push(`${value} = P(${d}, ${JSON.stringify(name)})`);
      checks += ifBlock(`${value} !== undefined`, inner, pad);
    }
    if (reads.length > 0) {
      this.#use('P');
      out += `${pad}const ${reads.join(', ')};\n${checks}`;
    }
    if (isObject(schema.discriminator) && Array.isArray(schema.oneOf)) out += this.#discriminator(schema, d, p, s, depth);
    return out;
  }

  #propertyNames(names: unknown, d: string, p: string, s: string, depth: number): string {
    const pad = ' '.repeat(depth);
    const key = this.#name('k');
    const list = this.#name('pn');
    this.#use('E');
    let out = `${pad}for (const ${key} of Object.keys(${d})) {\n${pad}  if (e.truncated) break;\n${pad}  const ${list} = [];\n`;
    out += this.#withErrors(names, key, p, `${s}/propertyNames`, depth + 1, list);
    this.#use('M');
    out += `${pad}  if (${list}.length > 0) {\n${pad}    M(e, ${list}.map((x) => ({ ...x, propertyName: ${key} })));\n`;
    out +=
      `${pad}    E(e, ${p}, ${str(`${s}/propertyNames`)}, 'propertyNames', { propertyName: ${key} }, 'property name must be valid');\n` +
      `${pad}  }\n${pad}}\n`;
    return out;
  }

  /** ajv's `discriminator` (no `mapping`): the tag picks the `oneOf` branch whose tag `const` it equals. */
  #discriminator(schema: JsonSchema, d: string, p: string, s: string, depth: number): string {
    const pad = ' '.repeat(depth);
    const tagName = String((schema.discriminator as JsonSchema).propertyName);
    const tag = this.#name('t');
    this.#use('E');
    let out = `${pad}{\n${pad}  const ${tag} = ${d}[${JSON.stringify(tagName)}];\n${pad}  if (typeof ${tag} === 'string') {\n`;
    let first = true;
    (schema.oneOf as unknown[]).forEach((branch, i) => {
      const props = isObject(branch) && isObject(branch.properties) ? branch.properties : {};
      const tagSchema = props[tagName];
      const values = isObject(tagSchema)
        ? tagSchema.const !== undefined
          ? [tagSchema.const]
          : Array.isArray(tagSchema.enum)
            ? tagSchema.enum
            : []
        : [];
      if (values.length === 0) return;
      const test = values.map((v) => `${tag} === ${JSON.stringify(v)}`).join(' || ');
      out += `${pad}    ${first ? '' : 'else '}if (${test}) {\n${this.#schema(branch, d, p, `${s}/oneOf/${i}`, depth + 3)}${pad}    }\n`;
      first = false;
    });
    const mapping =
      `E(e, ${p}, ${str(`${s}/discriminator`)}, 'discriminator', ` +
      `{ error: 'mapping', tag: ${JSON.stringify(tagName)}, tagValue: ${tag} }, ${str(`value of tag "${tagName}" must be in oneOf`)});`;
    out += first ? `${pad}    ${mapping}\n` : `${pad}    else ${mapping}\n`;
    out +=
      `${pad}  } else E(e, ${p}, ${str(`${s}/discriminator`)}, 'discriminator', ` +
      `{ error: 'tag', tag: ${JSON.stringify(tagName)}, tagValue: ${tag} }, ${str(`tag "${tagName}" must be string`)});\n${pad}}\n`;
    return out;
  }
}

/** The JSON type check of `types` (`correct`), or of not being any of them. */
function typeCheck(types: readonly string[], d: string, correct: boolean): string {
  const set = new Set(types);
  if (set.has('number')) set.delete('integer');
  const parts = [...set].map((t) => {
    switch (t) {
      case 'null':
        return `${d} === null`;
      case 'array':
        return `Array.isArray(${d})`;
      case 'object':
        return `(${d} && typeof ${d} == "object" && !Array.isArray(${d}))`;
      case 'integer':
        return `(typeof ${d} == "number" && !(${d} % 1) && !isNaN(${d}))`;
      case 'number':
        return `typeof ${d} == "number"`;
      default:
        return `typeof ${d} == ${JSON.stringify(t)}`;
    }
  });
  const any = parts.length === 1 ? parts[0]! : `(${parts.join(' || ')})`;
  return correct ? any : `!${any.startsWith('(') ? any : `(${any})`}`;
}

const JSON_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']);
const NUMERIC_KEYWORDS = [...NUMBER_KEYWORDS, 'maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties', 'minProperties'] as const;

/** Refuses what no validator can be compiled from (the loaders catch these first, with a location). */
function checkKeywords(schema: JsonSchema): void {
  for (const t of Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type]) {
    if (typeof t !== 'string' || !JSON_TYPES.has(t))
      throw new Error(`type must be JSONType or array of JSONTypes, found ${JSON.stringify(t)}`);
  }
  for (const keyword of NUMERIC_KEYWORDS) {
    if (schema[keyword] !== undefined && typeof schema[keyword] !== 'number') throw new Error(`${keyword} must be a number`);
  }
  if (schema.pattern !== undefined) new RegExp(String(schema.pattern), needsUnicodeFlag(String(schema.pattern)) ? 'u' : '');
}

function typeList(schema: JsonSchema): string[] {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return [];
}

/** The JSON type a schema's `format` checks (`string`, `number`), or undefined for formats that are documentation only. */
function formatType(schema: JsonSchema): 'string' | 'number' | undefined {
  return typeof schema.format === 'string' ? FORMAT_TYPES[schema.format] : undefined;
}

function isObject(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A single-quoted JavaScript string literal. */
function str(text: string): string {
  return `'${text
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')}'`;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** \`if (cond) statement\` on one line when the body is one line, else a block. */
function ifBlock(cond: string, body: string, pad: string): string {
  const lines = body.split('\n').length - 1;
  if (lines === 1 && !body.includes(' else ')) return `${pad}if (${cond}) ${body.trimStart()}`;
  return `${pad}if (${cond}) {\n${body}${pad}}\n`;
}

function resolvePointer(doc: JsonSchema, pointer: string): unknown {
  let node: unknown = doc;
  if (pointer === '' || pointer === '/') return doc;
  for (const segment of pointer.slice(1).split('/')) {
    if (!isObject(node)) return undefined;
    node = node[unescapePointer(decodeURIComponent(segment))];
  }
  return node;
}
