/**
 * @module
 * An operation's parameters: the path item's and its own, merged (the operation's win), each read
 * with its type, serialization and default, and checked against the path template. Swagger 2.0's
 * `in: body` and `in: formData` parameters become the request body (bodies.ts).
 */
import type { JsonValue, Parameter, RequestBody, TypeRef } from '../../model/model.js';
import { formBody, type OperationContext, swaggerBody } from './bodies.js';
import { type At, docOf, isObject } from './document.js';
import { leftOut, type SkipScope } from './problems.js';
import { childPointer } from './refs.js';
import { collectionFormatStyle, swaggerParameterSchema } from './swagger2.js';

type Json = Record<string, unknown>;

const LOCATIONS: ReadonlySet<string> = new Set(['path', 'query', 'header', 'cookie']);

/** A path item as its operations read it: its object, its place, and what `x-loom-skip` on it would leave out. */
export interface PathItem {
  readonly value: Json;
  readonly at: At;
  readonly scope: SkipScope;
}

/** Path-level and operation-level parameters merged (the operation's win), checked against the template. */
export function parametersOf(
  ctx: OperationContext,
  path: string,
  op: Json,
  at: At,
  operation: SkipScope,
  item: PathItem,
  queryNames: readonly string[],
): { parameters: Parameter[]; body?: RequestBody } {
  // Each with what x-loom-skip would leave out instead of its refusals: the operation, or for a
  // parameter of the path item, the path item (every operation of it reads the parameter).
  const merged = new Map<string, { raw: Json; at: At; scope: SkipScope }>();
  const collect = (list: unknown, listAt: At, scope: SkipScope) =>
    ctx.c.within(scope, () => {
      if (list === undefined) return;
      if (!Array.isArray(list)) {
        ctx.c.refuse(listAt, "'parameters' must be an array", 'these parameters are left out');
        return;
      }
      list.forEach((raw, i) => {
        const param = ctx.c.deref(raw, { doc: listAt.doc, pointer: childPointer(listAt.pointer, i) }, 'parameter');
        if (!param) return;
        const name = param.value['name'];
        const location = param.value['in'];
        if (typeof name !== 'string' || typeof location !== 'string') {
          ctx.c.refuse(param.at, "a parameter needs a string 'name' and 'in'", leftOut('parameter'));
          return;
        }
        // A variable of a query string in the path key (`?query={query}`) is a query parameter, whatever it says.
        const value = location === 'path' && queryNames.includes(name) ? { ...param.value, in: 'query' } : param.value;
        merged.set(`${value['in'] as string}\0${name}`, { raw: value, at: param.at, scope });
      });
    });
  collect(item.value['parameters'], { doc: item.at.doc, pointer: childPointer(item.at.pointer, 'parameters') }, item.scope);
  collect(op['parameters'], { doc: at.doc, pointer: childPointer(at.pointer, 'parameters') }, operation);

  const parameters: Parameter[] = [];
  const form: { name: string; raw: Json; at: At }[] = [];
  let body: RequestBody | undefined;
  for (const { raw, at: pAt, scope } of merged.values()) {
    ctx.c.within(scope, () => {
      const location = raw['in'] as string;
      if ((location === 'body' || location === 'formData') && ctx.format !== 'swagger-2.0') {
        // A Swagger 2.0 habit in an OpenAPI 3 document: name the replacement, not just the mistake.
        ctx.c.refuse(
          { doc: pAt.doc, pointer: childPointer(pAt.pointer, 'in') },
          `parameter '${String(raw['name'])}' has 'in: ${location}', which is Swagger 2.0: ` +
            `OpenAPI 3 describes the body with the operation's 'requestBody' (content: { ` +
            `${location === 'body' ? 'application/json' : 'application/x-www-form-urlencoded'}: { schema: … } }); move it there`,
          leftOut('parameter'),
        );
      } else if (location === 'body') {
        body = swaggerBody(ctx, raw, pAt, op);
      } else if (location === 'formData') {
        form.push({ name: raw['name'] as string, raw, at: pAt });
      } else if (!LOCATIONS.has(location)) {
        ctx.c.refuse(
          { doc: pAt.doc, pointer: childPointer(pAt.pointer, 'in') },
          `parameter '${String(raw['name'])}' has unknown location 'in: ${location}': use path, query, header or cookie`,
          leftOut('parameter'),
        );
      } else {
        const p = parameterOf(ctx, raw, pAt, location as Parameter['in']);
        if (p) parameters.push(p);
      }
    });
  }
  if (form.length > 0) {
    if (body)
      ctx.c.refuse(
        at,
        "an operation cannot have both 'in: body' and 'in: formData' parameters; keep one of them",
        "the 'in: formData' parameters are left out",
      );
    else body = formBody(ctx, form, op);
  }

  // A template and its parameters that disagree are what their authors' tools accept: the
  // template wins, with a warning at the operation.
  const declared = new Set(parameters.filter((p) => p.in === 'path').map((p) => p.name));
  const template = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  for (const name of template) {
    if (declared.has(name)) continue;
    ctx.c.warn(
      at,
      `path parameter '{${name}}' of '${path}' is not declared; it is read as a required string ` +
        `(declare it with 'name: ${name}' and 'in: path' to give it a type)`,
    );
    parameters.push({
      kind: 'parameter',
      name,
      localName: name,
      in: 'path',
      required: true,
      type: { kind: 'scalar', scalar: 'string' },
      style: 'simple',
      explode: false,
      deprecated: false,
      source: ctx.c.location(at),
    });
  }
  const kept = parameters.filter((p) => {
    if (p.in !== 'path' || template.includes(p.name)) return true;
    ctx.c.warn(
      at,
      `path parameter '${p.name}' does not appear in '${path}'; it is left out (add '{${p.name}}' to the path, or change its 'in')`,
    );
    return false;
  });
  return { parameters: kept, ...(body ? { body } : {}) };
}

function parameterOf(ctx: OperationContext, raw: Json, at: At, location: Parameter['in']): Parameter | undefined {
  const name = raw['name'] as string;
  let type: TypeRef;
  let mediaType: string | undefined;
  if (ctx.format === 'swagger-2.0') {
    type = ctx.c.typeOf(swaggerParameterSchema(raw), at);
  } else if (raw['schema'] !== undefined) {
    type = ctx.c.typeOf(raw['schema'], { doc: at.doc, pointer: childPointer(at.pointer, 'schema') });
  } else if (isObject(raw['content'])) {
    const [media, content] = Object.entries(raw['content'])[0] ?? [];
    mediaType = media;
    type =
      isObject(content) && content['schema'] !== undefined
        ? ctx.c.typeOf(content['schema'], { doc: at.doc, pointer: childPointer(at.pointer, 'content', media ?? '', 'schema') })
        : { kind: 'unknown' };
  } else {
    ctx.c.warn(at, `parameter '${name}' has no schema; it is read as a string`);
    type = { kind: 'scalar', scalar: 'string' };
  }
  let required = raw['required'] === true;
  if (location === 'path' && !required) {
    if (raw['required'] === false) ctx.c.warn(at, `path parameter '${name}' says required: false; path parameters are always required`);
    required = true;
  }
  // A `content` parameter travels as its media type's text: `style` and `explode` do not apply.
  const serialization = mediaType === undefined ? styleOf(ctx, raw, at, location) : { mediaType };
  const doc = docOf(raw);
  const fallback = required ? undefined : parameterDefault(ctx, raw, type, at);
  return {
    kind: 'parameter',
    name,
    localName: name, // made unique per operation by the caller
    in: location,
    required,
    type,
    ...serialization,
    ...(fallback !== undefined ? { default: fallback } : {}),
    deprecated: raw['deprecated'] === true,
    ...(doc ? { doc } : {}),
    source: ctx.c.location(at),
  };
}

/**
 * A parameter's `default`: on the parameter itself in Swagger 2.0, on its schema (through
 * `$ref`s) in OpenAPI 3. A `content` parameter's default would be JSON text, which OpenAPI
 * does not define; it is not read.
 */
function parameterDefault(ctx: OperationContext, raw: Json, type: TypeRef, at: At): JsonValue | undefined {
  const value = ctx.format === 'swagger-2.0' ? (raw['default'] as JsonValue | undefined) : ctx.c.defaultOf(raw['schema'], at);
  if (value === undefined || type.kind !== 'scalar') return value;
  // A text default is converted like a value sent (`'20'` to 20, or a 400 at registration if it
  // cannot be); any other must already be of the parameter's type.
  const expected = type.scalar === 'bool' ? 'boolean' : type.scalar === 'string' || type.scalar === 'bytes' ? 'string' : 'number';
  if (typeof value === expected || typeof value === 'string') return value;
  ctx.c.warn(
    at,
    `parameter '${raw['name'] as string}' has default ${JSON.stringify(value)}, which is not a ${expected}; the default is ignored`,
  );
  return undefined;
}

/** The effective `style`/`explode`, spelled out so emitters need not know each version's defaults. */
function styleOf(ctx: OperationContext, raw: Json, at: At, location: Parameter['in']): Pick<Parameter, 'style' | 'explode'> {
  if (ctx.format === 'swagger-2.0') {
    const s = collectionFormatStyle(raw['collectionFormat'], location);
    if (s) return s;
    ctx.c.warn(at, `collectionFormat '${String(raw['collectionFormat'])}' has no OpenAPI 3 equivalent; values are read comma-separated`);
    return collectionFormatStyle('csv', location)!;
  }
  const defaultStyle = location === 'query' || location === 'cookie' ? 'form' : 'simple';
  const style = typeof raw['style'] === 'string' ? (raw['style'] as NonNullable<Parameter['style']>) : defaultStyle;
  const explode = typeof raw['explode'] === 'boolean' ? raw['explode'] : style === 'form';
  return { style, explode };
}
