/**
 * @module
 * The `validators` emitter: for a schema file `X`,
 * - `X.schemas.ts`: the JSON Schema document (`$defs` per named type and request body) as `const` data;
 * - `X.validators.ts`: ajv standalone validators compiled from it at generation time, with typed
 *   exports and no run-time dependency (formats and helpers are inlined).
 *
 * Export names: `validate<LocalName>` per named type, `validate<OperationPascal>Body` per HTTP
 * request body (see {@link bodyValidatorName}), `validate<OperationPascal><ParamPascal>Param` per
 * parameter checked by its schema (see {@link paramValidatorName}). The server emitter imports
 * these names.
 *
 * Named types validate what the server sends (their `writeOnly` properties are not required),
 * bodies what the client sends (their `readOnly` ones are not required).
 */
import type { EmitContext, Emitter } from '../../emit.js';
import type { HttpOperation, NamedType, SchemaFile, TypeRef } from '../../model/model.js';
import { isProtoFile } from '../../model/schema-file.js';
import { importSymbol, jsDocText } from '../../printer/generated-file.js';
import { tsLiteral } from '../../printer/literal.js';
import { validatedBody } from '../http/operation-view.js';
import type { JsonSchema, JsonSchemaOptions } from '../json-schema/index.js';
import { hasDirectionalForms, namedTypeSchema, typeRefSchema } from '../json-schema/index.js';
import { bodyValidatorName, paramValidatorName, typeValidatorName } from '../names.js';
import type { TypeRenderContext } from '../types/render.js';
import { renderType } from '../types/render.js';
import { externalPlaceholder } from './codegen.js';
import type { CompileInput } from './compile.js';
import { compileCacheKey, compileStandalone, parseCompiled } from './compile.js';

/** `$id` of a schema file's JSON Schema document; cross-file `$ref`s use it. */
export function schemaId(file: SchemaFile): string {
  // A URI: each path segment escaped (`asteroids neows.json` → `asteroids%20neows.json`).
  return `loom:${file.path.split('/').map(encodeURIComponent).join('/')}`;
}

/** `$defs` key of a body or parameter schema: the validator name without `validate`. */
function valueKey(value: ValidatedValue): string {
  return value.name.slice('validate'.length);
}

/** A request value with a generated validator: an operation's body or one of its parameters. */
interface ValidatedValue {
  readonly op: HttpOperation;
  /** The export name (`validateCreatePetBody`); its `$defs` key is the name without `validate`. */
  readonly name: string;
  readonly type: TypeRef;
  /** What the `.d.ts` says it validates. */
  readonly what: string;
}

/** The bodies and parameters of a file's operations that get validators, in schema order. */
function validatedValues(file: SchemaFile): ValidatedValue[] {
  const out: ValidatedValue[] = [];
  for (const op of httpOperations(file)) {
    const where = `of \`${op.name}\` (${op.method.toUpperCase()} ${op.path})`;
    const body = validatedBody(op);
    if (body?.type)
      out.push({ op, name: bodyValidatorName(op)!, type: body.type, what: `the \`${body.mediaType}\` request body ${where}` });
    for (const p of op.parameters) {
      const name = paramValidatorName(op, p);
      if (name !== undefined)
        out.push({ op, name, type: p.type, what: `the ${p.in} parameter \`${p.name}\` ${where}, after its text is converted` });
    }
  }
  return out;
}

function httpOperations(file: SchemaFile): HttpOperation[] {
  return file.services.flatMap((s) => s.operations.filter((o): o is HttpOperation => o.kind === 'http'));
}

/**
 * `$defs` key of a type's request form (see `json-schema/direction.ts`), in the document of
 * the file whose bodies use it: `Pet.request`, or `common.yaml:Person.request` for a type of
 * another file. The `.` keeps it apart from the names of types and bodies (identifiers).
 */
function requestKey(type: NamedType, file: SchemaFile): string {
  return type.parent === file ? `${type.localName}.request` : `${type.parent.path}:${type.localName}.request`;
}

/** A `$defs` key as a JSON Pointer segment in a `$ref` (RFC 6901: `~` → `~0`, `/` → `~1`). */
function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** True when a body or parameter is just a named type that reads the same in both directions: it reuses that type's validator. */
function reusesTypeValidator(type: TypeRef): boolean {
  return type.kind === 'ref' && !type.nullable && !hasDirectionalForms(type.target);
}

/**
 * The JSON Schema document of a file: every named type and inline request body under `$defs`.
 * Named types are in their response form (writeOnly properties not required), bodies in their
 * request form (readOnly properties not required); a type whose two forms differ and that a
 * body uses gets its request form too (`Pet.request`). `reached` collects the other files its
 * `$ref`s point into.
 */
export function schemaDocument(file: SchemaFile, reached?: Set<SchemaFile>): JsonSchema {
  const refTo = (target: NamedType) => {
    if (target.parent === file) return `#/$defs/${target.localName}`;
    reached?.add(target.parent);
    return `${schemaId(target.parent)}#/$defs/${target.localName}`;
  };
  const requestForms: NamedType[] = [];
  const request: JsonSchemaOptions = {
    direction: 'request',
    refTo: (target) => {
      if (!hasDirectionalForms(target)) return refTo(target);
      if (!requestForms.includes(target)) requestForms.push(target);
      return `#/$defs/${pointerSegment(requestKey(target, file))}`;
    },
  };
  const response: JsonSchemaOptions = { direction: 'response', refTo };
  const defs: JsonSchema = {};
  for (const type of file.types) defs[type.localName] = namedTypeSchema(type, response);
  for (const value of validatedValues(file)) {
    if (value.type.kind === 'ref' && !value.type.nullable) request.refTo(value.type.target);
    else defs[valueKey(value)] = typeRefSchema(value.type, isProtoFile(file), request);
  }
  // Request forms reach further request forms: the list grows while it is walked.
  for (let i = 0; i < requestForms.length; i++) {
    const type = requestForms[i]!;
    defs[requestKey(type, file)] = namedTypeSchema(type, request);
  }
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: schemaId(file), $defs: defs };
}

const documentsByFile = new WeakMap<SchemaFile, { doc: JsonSchema; reached: ReadonlySet<SchemaFile> }>();

/** {@link schemaDocument}, built once per file: imported files are reached from many others. */
function cachedDocument(file: SchemaFile): { doc: JsonSchema; reached: ReadonlySet<SchemaFile> } {
  let entry = documentsByFile.get(file);
  if (!entry) {
    const reached = new Set<SchemaFile>();
    entry = { doc: schemaDocument(file, reached), reached };
    documentsByFile.set(file, entry);
  }
  return entry;
}

/** What compiling a file's validators takes, and the cache key naming that input. */
export interface ValidatorsJob {
  /** `validators-<sha256>`: changes whenever anything the compiled code depends on does. */
  readonly key: string;
  readonly input: CompileInput;
  /** `input.documents` as JSON text: hashed for the key, and what a worker thread is sent. */
  readonly documentsJson: string;
}

const jobsByFile = new WeakMap<SchemaFile, ValidatorsJob | null>();

/**
 * The compile job of a file's validators, or undefined when the file gets none. Built once
 * per file: the CLI sends it to a worker thread before the emitters run (see
 * `generator/cli/validators-prefetch.ts`), and the emitter asks again for the same key.
 *
 * @example
 * const job = validatorsJob(file);
 * job?.key; // 'validators-3f2a…'
 */
export function validatorsJob(file: SchemaFile): ValidatorsJob | undefined {
  let job = jobsByFile.get(file);
  if (job === undefined) {
    job = computeJob(file);
    jobsByFile.set(file, job);
  }
  return job ?? undefined;
}

function computeJob(file: SchemaFile): ValidatorsJob | null {
  const values = validatedValues(file);
  if (file.types.length === 0 && values.length === 0) return null;

  // The file's own document only: a `$ref` into another file calls that file's validator.
  const documents = [cachedDocument(file).doc];
  const exports = new Map<string, string>();
  for (const type of file.types) exports.set(typeValidatorName(type), `${schemaId(file)}#/$defs/${type.localName}`);
  for (const value of values) {
    const type = value.type;
    let ref = `${schemaId(file)}#/$defs/${valueKey(value)}`;
    if (type.kind === 'ref' && !type.nullable) {
      ref = reusesTypeValidator(type)
        ? `${schemaId(type.target.parent)}#/$defs/${type.target.localName}`
        : `${schemaId(file)}#/$defs/${pointerSegment(requestKey(type.target, file))}`;
    }
    exports.set(value.name, ref);
  }
  const input: CompileInput = { documents, exports };
  // ~1 MB of JSON for a large API, and a hash of it: computed on first use only.
  let json: string | undefined;
  let key: string | undefined;
  return {
    input,
    get documentsJson() {
      return (json ??= JSON.stringify(input.documents));
    },
    get key() {
      return (key ??= `validators-${compileCacheKey(input, this.documentsJson)}`);
    },
  };
}

/**
 * Emits `X.schemas.ts` and `X.validators.ts` for files with types or bodies:
 * {@link validatorSchemasEmitter} and {@link validatorCodeEmitter} together.
 *
 * @example
 * emit(files, [validatorsEmitter], options);
 * // issues/openapi.validators.ts: export const validateIssue: Validator<Issue> = validate10; …
 */
export const validatorsEmitter: Emitter = {
  name: 'validators',
  emit(file, ctx) {
    validatorSchemasEmitter.emit(file, ctx);
    validatorCodeEmitter.emit(file, ctx);
  },
};

/**
 * The part of {@link validatorsEmitter} that needs no compiling: `X.schemas.ts`. The CLI runs it
 * while a worker thread compiles the validators.
 */
export const validatorSchemasEmitter: Emitter = {
  name: 'validators-schemas',
  emit(file, ctx) {
    // Nothing imports another file's schemas: only the files asked for get theirs.
    if (!validatorsJob(file) || !ctx.isInput(file)) return;
    emitSchemasFile(file, cachedDocument(file).doc, validatedValues(file), ctx);
  },
};

/**
 * The part of {@link validatorsEmitter} that compiles: `X.validators.ts`, ajv's standalone code
 * with typed exports. One TypeScript file rather than JavaScript beside a declaration file: a
 * project's own `tsc` then compiles it into its output like any other module (a `.js` next to the
 * sources is left behind unless the project sets `allowJs`). The compiled code is untyped
 * JavaScript, so the file opts out of type checking (`// @ts-nocheck`); its exports carry their
 * types explicitly, which is what importers see.
 */
export const validatorCodeEmitter: Emitter = {
  name: 'validators-code',
  emit(file, ctx) {
    const job = validatorsJob(file);
    if (!job) return;
    // Compiling is the slowest step of a run (~0.4 s for Gitea's 216 schemas): reuse a result
    // compiled earlier (or in a worker thread) from exactly the same input, when the caller
    // offers a cache.
    const cache = ctx.options.cache;
    let code = cache?.get(job.key);
    if (code === undefined) {
      try {
        code = compileStandalone(job.input);
      } catch (e) {
        // An invalid `pattern` and the like: report it as a schema problem, not a crash.
        throw Object.assign(new Error(`cannot compile validators for ${file.path}`), {
          diagnostics: [
            {
              severity: 'error',
              message: `cannot compile the JSON Schemas into validators: ${(e as Error).message}. Fix or remove the keyword it names.`,
              source: { file: file.path },
            },
          ],
        });
      }
      cache?.set(job.key, code);
    }
    emitValidatorsFile(file, code, validatedValues(file), ctx);
  },
};

function emitSchemasFile(file: SchemaFile, doc: JsonSchema, values: readonly ValidatedValue[], ctx: EmitContext): void {
  const f = ctx.newFile(ctx.outputPath(file, 'schemas.ts'), file);
  f.jsDoc(
    `JSON Schema (2020-12) of every named type and request body in ${file.path}.\n` +
      `References into other files use their \`$id\` (\`loom:<path>\`).`,
  );
  const defs = doc.$defs as Record<string, unknown>;
  // A large document as \`const\` data has a type larger than tsc will write into declarations
  // (TS7056, Azure's network API): it gets a plain JSON Schema type instead.
  const large = (validatorsJob(file)?.documentsJson.length ?? 0) > LARGE_SCHEMAS;
  if (large) {
    f.jsDoc('A JSON Schema object, as data.');
    f.print('export interface ', f.declare('JsonSchemaObject'), ' {');
    f.print('  readonly [keyword: string]: unknown;');
    f.print('}');
    f.print();
    f.print(
      'export const schemas: { readonly $schema: string; readonly $id: string; ' +
        'readonly $defs: { readonly [name: string]: JsonSchemaObject } } = ',
      tsLiteral(doc),
      ';',
    );
  } else f.print('export const schemas = ', tsLiteral(doc), ' as const;');
  f.print();
  const access = (key: string) => (large ? `[${f.string(key)}]!` : f.propertyAccess(key));
  for (const type of file.types) f.print('export const ', type.localName, 'Schema = schemas.$defs', access(type.localName), ';');
  for (const value of values) {
    const key = valueKey(value);
    if (key in defs) f.print('export const ', key, 'Schema = schemas.$defs', access(key), ';');
  }
}

/** Characters of JSON past which a file's schemas are typed as JSON Schema rather than as their \`const\` data. */
const LARGE_SCHEMAS = 256 * 1024;

/** An exported name of ajv's standalone code: `export const validateIssue = validate10;`. */
const EXPORT_LINE = /^export const ([\p{L}\p{N}_$]+) = /gmu;

function emitValidatorsFile(file: SchemaFile, compiledText: string, values: readonly ValidatedValue[], ctx: EmitContext): void {
  const f = ctx.newFile(ctx.outputPath(file, 'validators.ts'), file);
  const compiled = parseCompiled(compiledText);
  // Every name the compiled code declares, and every export: an import never shadows one.
  for (const [, name] of compiled.code.matchAll(/^(?:export const|const|function) ([\p{L}\p{N}_$]+)/gmu)) f.declare(name!);
  const byId = filesById(ctx.files);
  let code = compiled.code;
  compiled.externals.forEach((external, index) => {
    const target = byId.get(external.documentId);
    if (!target) throw new Error(`${file.path}: validators refer to ${external.documentId}, which is not loaded`);
    const local = f.text(importSymbol(external.name, `/${ctx.outputPath(target, 'validators.ts')}`));
    code = code.split(externalPlaceholder(index)).join(local);
  });
  f.headerComment('Validators compiled at generation time from the schemas in the `.schemas.ts` beside this file.');
  f.headerComment('The compiled code is plain JavaScript, so the file is not type-checked; its exports carry their types.');
  f.headerComment('@ts-nocheck');
  const render: TypeRenderContext = { f, file, typesPath: (other) => `/${ctx.outputPath(other, 'types.ts')}` };
  const proto = isProtoFile(file);
  // Schemas named `ValidationError` exist in the wild: imported types get aliased instead.
  for (const name of ['ValidationError', 'Validator', 'JsonValidator']) f.declare(name);
  f.jsDoc("The parts of ajv's `ErrorObject` a validator reports.");
  f.print('export interface ValidationError {');
  f.print('  instancePath: string;');
  f.print('  schemaPath: string;');
  f.print('  keyword: string;');
  f.print('  params: Record<string, unknown>;');
  f.print('  message?: string;');
  f.print('}');
  f.print();
  f.jsDoc("A compiled validator: a type guard that leaves what failed on `errors` (ajv's `ValidateFunction` shape).");
  f.print('export type Validator<T> = ((data: unknown) => data is T) & { errors?: ValidationError[] | null };');
  // Validators check the forms the types describe (named types as the server sends them, bodies
  // as the client does), so they are type guards; except for proto messages, whose JSON differs.
  if (proto) {
    f.print();
    f.jsDoc(
      "A validator of a message's proto3 JSON form. Not a type guard: JSON carries enums as names,\n" +
        '64-bit integers as strings and bytes as base64, which the codec converts into the TypeScript types.',
    );
    f.print('export type JsonValidator = ((data: unknown) => boolean) & { errors?: ValidationError[] | null };');
  }
  f.print();
  // What each export validates, to type it and document it where the compiled code exports it.
  const exports = new Map<string, { type: string; doc: string }>();
  for (const type of file.types) {
    const t = proto
      ? 'JsonValidator'
      : `Validator<${f.text(importSymbol(type.localName, `/${ctx.outputPath(file, 'types.ts')}`, { typeOnly: true }))}>`;
    exports.set(typeValidatorName(type), {
      type: t,
      doc: jsDocText(`Validates the JSON form of {@link ${type.localName}}.`, [`@generated from ${type.fullName}`], ''),
    });
  }
  for (const value of values) {
    const t = `Validator<${f.text(renderType(value.type, { ...render, direction: 'request' }))}>`;
    exports.set(value.name, { type: t, doc: jsDocText(`Validates ${value.what}.`, [], '') });
  }
  f.printBlock(
    code.replace(EXPORT_LINE, (line, name: string) => {
      const entry = exports.get(name);
      return entry ? `${entry.doc}\nexport const ${name}: ${entry.type} = ` : line;
    }),
  );
}

/** Every loaded file by its schema `$id`, imported ones included. */
function filesById(files: readonly SchemaFile[]): Map<string, SchemaFile> {
  const out = new Map<string, SchemaFile>();
  const visit = (file: SchemaFile) => {
    const id = schemaId(file);
    if (out.has(id)) return;
    out.set(id, file);
    for (const dep of file.dependencies) visit(dep);
  };
  for (const file of files) visit(file);
  return out;
}
