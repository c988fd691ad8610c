/**
 * @module
 * The body parameter: read before its extractor runs (by the reader `body.ts` chooses), then
 * converted, defaulted, required and validated here. `type: ReadableStream` takes the body as a
 * stream, unread, for large uploads; `type: Readable` (Node's) does too, through `loom/rest/node`.
 */
import { ConversionError, compileConstraints, compileConversion, typeName } from '../convert/convert.js';
import type { Violation } from '../errors.js';
import { errorMessage, RegistrationError } from '../errors.js';
import type { RawParam } from '../metadata/raw.js';
import { looksLikeNodeStream, needsNode } from '../node-support.js';
import type { ParamOptions } from '../types.js';
import type { Extractor, ParamPlan, ParamScope } from './extract.js';
import { atRegistration, checkReaderType, compileChecks } from './extract-common.js';

/** A body kept as read (no type conversion, no conversions): defaulted, required and checked only. */
export interface PlainBody {
  readonly required: boolean;
  readonly hasDefault: boolean;
  readonly defaultValue: unknown;
  readonly check: ((value: unknown, violations: Violation[]) => void) | undefined;
}

/** A {@link PlainBody}'s value from the body as read; a failure is pushed to `violations`. */
export function checkBody(b: PlainBody, value: unknown, violations: Violation[]): unknown {
  if (value === undefined) {
    if (b.hasDefault) return b.defaultValue;
    if (b.required) violations.push({ location: 'body', name: 'body', message: 'is required' });
    return undefined;
  }
  if (b.check) b.check(value, violations);
  return value;
}

/** Compiles `@BodyParam` (and an undecorated body bound by name). */
export function bodyPlan(param: RawParam, scope: ParamScope, options: ParamOptions): ParamPlan {
  if (options.type === ReadableStream || looksLikeNodeStream(options.type)) return streamPlan(param, scope, options);
  if (options.type === 'upload')
    throw new RegistrationError(`${scope.where}: { type: 'upload' } is a multipart file: read it with @FormParam`);
  const typeReader = typeof options.type === 'function' ? scope.state.readers.forType(options.type) : undefined;
  const reader = options.reader ?? scope.reader ?? typeReader;
  checkReaderType(reader, options.type, scope, 'the body');
  const constraints = atRegistration(scope, () => compileConstraints(options));
  const check = compileChecks(options, scope, constraints, 'body', 'body');
  const required = options.required === true;
  const hasDefault = param.hasDefault === true;
  const conversions = param.conversions ?? [];
  // Without a reader, `type` converts the body as it converts a query value (a text body `5` for
  // 'integer', `fromString` for a class), and checks what JSON gave against the scalar types.
  const typed = reader ? undefined : atRegistration(scope, () => compileBodyConversion(options.type));
  const checks: PlainBody = { required, hasDefault, defaultValue: param.defaultValue, check };
  // A body kept as read is only checked; one with a type or conversions is converted first.
  const plain = typed || conversions.length > 0 ? undefined : checks;
  const extract: Extractor = plain
    ? (x, violations) => checkBody(plain, x.body, violations)
    : (x, violations) => {
        let value = x.body;
        if (value === undefined) return checkBody(checks, value, violations);
        try {
          if (typed) value = typed(value);
          for (const c of conversions) value = c.convert(value);
        } catch (e) {
          violations.push({ location: 'body', name: 'body', message: errorMessage(e) });
          return undefined;
        }
        if (check) check(value, violations);
        return value;
      };
  return {
    extract,
    source: { kind: 'body' },
    needs: 'body',
    async: false,
    ...(reader ? { bodyReader: reader } : {}),
    ...(plain ? { plainBody: plain } : {}),
    bodyAsText: options.type === 'string' || options.type === String,
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
  };
}

/**
 * The body as a stream the method reads at its own pace (xp-forge's `Stream`): never buffered, so
 * a large upload costs no memory; past the route's byte limit the stream fails with a 413 error.
 * A request without a body is an absent one (400 when `required`).
 */
function streamPlan(param: RawParam, scope: ParamScope, options: ParamOptions): ParamPlan {
  const node = scope.state.options.node;
  let adapt: ((body: ReadableStream<Uint8Array>) => unknown) | undefined;
  if (options.type !== ReadableStream) {
    if (!node) throw needsNode(scope.where, 'a Node stream body');
    if (!node.isNodeStreamType(options.type)) {
      throw new RegistrationError(`${scope.where}: ${typeName(options.type)} is not a stream type (use ReadableStream or Node's Readable)`);
    }
    adapt = (body) => node.toNodeStream(body);
  }
  const required = options.required === true;
  const extract: Extractor = (x, violations) => {
    const body = x.body as ReadableStream<Uint8Array> | undefined;
    if (body === undefined) {
      if (param.hasDefault) return param.defaultValue;
      if (required) violations.push({ location: 'body', name: 'body', message: 'is required' });
      return undefined;
    }
    return adapt ? adapt(body) : body;
  };
  return {
    extract,
    source: { kind: 'body' },
    needs: 'stream',
    async: false,
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
  };
}

/**
 * The conversion `type` gives a body read without a reader: a string (a text body, or a JSON
 * string) converts as a query value would; JSON numbers and booleans must be of a scalar type's
 * kind; other JSON values go to a class type as they are (JSON carries its own structure).
 * `undefined` for a body kept as read (no type, strings, JSON, files).
 */
function compileBodyConversion(type: ParamOptions['type']): ((value: unknown) => unknown) | undefined {
  if (type === undefined || type === 'string' || type === String || type === 'json' || type === 'file') return undefined;
  const fromText = compileConversion(type);
  const scalar: ((value: unknown) => boolean) | undefined =
    type === 'number' || type === Number
      ? (v) => typeof v === 'number'
      : type === 'integer' || type === 'int64'
        ? (v) => Number.isSafeInteger(v)
        : type === 'boolean' || type === Boolean
          ? (v) => typeof v === 'boolean'
          : type === 'date' || type === 'date-time' || type === Date
            ? () => false
            : undefined;
  return (value) => {
    if (typeof value === 'string') return fromText(value);
    if (scalar && !scalar(value))
      throw new ConversionError(`must be ${typeName(type)}, got ${JSON.stringify(value)?.slice(0, 40) ?? String(value)}`);
    return value;
  };
}
