/**
 * @module
 * What an operation sends and answers: its request body (OpenAPI 3's `requestBody`, or Swagger
 * 2.0's `in: body` and `in: formData` parameters), and its responses with their headers, each in
 * the media types it travels as.
 */
import { bareMediaType, isFormMediaType } from '../../model/media-types.js';
import type { FormSeparator, MediaContent, RequestBody, ResponseHeader, ResponseSpec, SchemaFormat, TypeRef } from '../../model/model.js';
import { type At, docOf, isObject } from './document.js';
import { leftOut } from './problems.js';
import { childPointer } from './refs.js';
import type { SchemaConverter } from './schema-converter.js';
import { formMediaTypes, formSeparator, mediaList, swaggerParameterSchema } from './swagger2.js';

type Json = Record<string, unknown>;

/** What the readers of an operation's parts need of its document. */
export interface OperationContext {
  /** Converts the schemas, and takes the problems. */
  readonly c: SchemaConverter;
  readonly format: SchemaFormat;
  /** The document, for what it says for every operation (Swagger 2.0's `consumes` and `produces`). */
  readonly data: Json;
}

function consumesOf(ctx: OperationContext, op: Json): string[] {
  return mediaList(op['consumes']) ?? mediaList(ctx.data['consumes']) ?? ['application/json'];
}

function producesOf(ctx: OperationContext, op: Json): string[] {
  return mediaList(op['produces']) ?? mediaList(ctx.data['produces']) ?? ['application/json'];
}

export function swaggerBody(ctx: OperationContext, raw: Json, at: At, op: Json): RequestBody {
  const type = ctx.c.typeOf(raw['schema'] ?? {}, { doc: at.doc, pointer: childPointer(at.pointer, 'schema') });
  const doc = docOf(raw);
  return {
    required: raw['required'] === true,
    contents: consumesOf(ctx, op).map((mediaType) => ({ mediaType, type })),
    ...(doc ? { doc } : {}),
  };
}

export function formBody(ctx: OperationContext, form: readonly { name: string; raw: Json; at: At }[], op: Json): RequestBody {
  const properties = form.map(({ name, raw, at }) => {
    const doc = docOf(raw);
    return {
      name,
      required: raw['required'] === true,
      type: ctx.c.typeOf(swaggerParameterSchema(raw), at),
      readOnly: false,
      writeOnly: false,
      ...(raw['default'] !== undefined ? { default: raw['default'] as never } : {}),
      ...(doc ? { doc } : {}),
    };
  });
  // Open like any schema without `additionalProperties`: extra form fields are not an error.
  const type: TypeRef = { kind: 'object', properties, additionalProperties: true };
  const hasFile = form.some(({ raw }) => raw['type'] === 'file');
  const delimited = new Map<string, FormSeparator>();
  for (const { name, raw } of form) {
    const separator = raw['type'] === 'array' ? formSeparator(raw['collectionFormat']) : undefined;
    if (separator) delimited.set(name, separator);
  }
  return {
    required: properties.some((p) => p.required),
    contents: formMediaTypes(consumesOf(ctx, op), hasFile).map((mediaType) => ({
      mediaType,
      type,
      ...(delimited.size > 0 ? { delimited } : {}),
    })),
  };
}

export function requestBodyOf(ctx: OperationContext, op: Json, at: At): RequestBody | undefined {
  if (op['requestBody'] === undefined) return undefined;
  const body = ctx.c.deref(op['requestBody'], { doc: at.doc, pointer: childPointer(at.pointer, 'requestBody') }, 'request body');
  if (!body) return undefined;
  const doc = docOf(body.value);
  return { required: body.value['required'] === true, contents: contentsOf(ctx, body.value['content'], body.at), ...(doc ? { doc } : {}) };
}

function contentsOf(ctx: OperationContext, content: unknown, at: At): MediaContent[] {
  if (!isObject(content)) return [];
  return Object.entries(content).map(([mediaType, media]) => {
    const schema = isObject(media) ? media['schema'] : undefined;
    const delimited = isObject(media) ? delimitedFields(ctx, mediaType, media['encoding']) : undefined;
    return {
      mediaType,
      ...(schema === undefined
        ? {}
        : { type: ctx.c.typeOf(schema, { doc: at.doc, pointer: childPointer(at.pointer, 'content', mediaType, 'schema') }) }),
      ...(delimited ? { delimited } : {}),
    };
  });
}

/**
 * The properties of a form body whose `encoding` sends an array in one field: `explode: false`
 * (`style: form` joins with commas) or `spaceDelimited`/`pipeDelimited`. Style and explode
 * describe url-encoded bodies; OpenAPI 3.1 extends them to multipart parts that set either.
 */
function delimitedFields(ctx: OperationContext, mediaType: string, encoding: unknown): ReadonlyMap<string, FormSeparator> | undefined {
  const multipart = bareMediaType(mediaType) === 'multipart/form-data';
  if (!isObject(encoding) || !isFormMediaType(mediaType) || (multipart && ctx.format !== 'openapi-3.1')) return undefined;
  const out = new Map<string, FormSeparator>();
  for (const [name, field] of Object.entries(encoding)) {
    if (!isObject(field) || (multipart && field['style'] === undefined && field['explode'] === undefined)) continue;
    const style = field['style'] ?? 'form';
    const explode = field['explode'] ?? style === 'form';
    if (explode !== false) continue;
    const separator = style === 'form' ? ',' : style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : undefined;
    if (separator) out.set(name, separator);
  }
  return out.size > 0 ? out : undefined;
}

export function responsesOf(ctx: OperationContext, op: Json, at: At): ResponseSpec[] {
  const responses = op['responses'];
  const responsesAt = { doc: at.doc, pointer: childPointer(at.pointer, 'responses') };
  if (!isObject(responses)) {
    if (responses !== undefined)
      ctx.c.refuse(responsesAt, "'responses' must be an object keyed by status code", 'the operation has no responses');
    return [];
  }
  const out: ResponseSpec[] = [];
  let fallback: ResponseSpec | undefined;
  for (const [code, raw] of Object.entries(responses)) {
    if (code.startsWith('x-')) continue;
    const codeAt = { doc: responsesAt.doc, pointer: childPointer(responsesAt.pointer, code) };
    let status: ResponseSpec['status'];
    if (code === 'default') status = 'default';
    else if (/^[1-5]\d\d$/.test(code)) status = Number(code);
    else if (/^[1-5]XX$/i.test(code)) status = code.toUpperCase() as ResponseSpec['status'];
    else {
      ctx.c.refuse(
        codeAt,
        `response status '${code}' is not a status code: use 100–599, a range such as 4XX, or 'default'`,
        leftOut('response'),
      );
      continue;
    }
    const response = ctx.c.deref(raw, codeAt, 'response');
    if (!response) continue;
    const spec = responseOf(ctx, status, response.value, response.at, op);
    if (status === 'default') fallback = spec;
    else out.push(spec);
  }
  if (fallback) out.push(fallback);
  return out;
}

function responseOf(ctx: OperationContext, status: ResponseSpec['status'], raw: Json, at: At, op: Json): ResponseSpec {
  const doc = docOf(raw);
  let contents: MediaContent[];
  if (ctx.format === 'swagger-2.0') {
    const schema = raw['schema'];
    const type = schema === undefined ? undefined : ctx.c.typeOf(schema, { doc: at.doc, pointer: childPointer(at.pointer, 'schema') });
    contents = type ? producesOf(ctx, op).map((mediaType) => ({ mediaType, type })) : [];
  } else {
    contents = contentsOf(ctx, raw['content'], at);
  }
  return { status, ...(doc ? { doc } : {}), headers: headersOf(ctx, raw['headers'], at), contents };
}

function headersOf(ctx: OperationContext, headers: unknown, at: At): ResponseHeader[] {
  if (!isObject(headers)) return [];
  const out: ResponseHeader[] = [];
  for (const [name, raw] of Object.entries(headers)) {
    const header = ctx.c.deref(raw, { doc: at.doc, pointer: childPointer(at.pointer, 'headers', name) }, 'header');
    if (!header) continue;
    const h = header.value;
    let type: TypeRef;
    if (ctx.format === 'swagger-2.0') type = ctx.c.typeOf(swaggerParameterSchema(h), header.at);
    else if (h['schema'] !== undefined)
      type = ctx.c.typeOf(h['schema'], { doc: header.at.doc, pointer: childPointer(header.at.pointer, 'schema') });
    else if (isObject(h['content'])) type = contentsOf(ctx, h['content'], header.at)[0]?.type ?? { kind: 'unknown' };
    else type = { kind: 'scalar', scalar: 'string' };
    const doc = docOf(h);
    out.push({ name, required: h['required'] === true, type, ...(doc ? { doc } : {}) });
  }
  return out;
}
