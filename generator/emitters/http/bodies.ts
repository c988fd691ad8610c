/**
 * @module
 * The TypeScript types of an HTTP operation's bodies as both ends see them: the request body a
 * client sends and a handler receives, and the success body a handler returns and a client
 * resolves to (bytes, text or a typed value). The server and client emitters print the same types
 * from here.
 */
import type { EmitContext } from '../../emit.js';
import { isJsonMediaType } from '../../model/media-types.js';
import type { HttpOperation, SchemaFile, TypeRef } from '../../model/model.js';
import type { GeneratedFile } from '../../printer/generated-file.js';
import type { TypeRenderContext } from '../types/render.js';
import { renderType } from '../types/render.js';
import { successResponse, validatedBody } from './operation-view.js';

/** A render context for type expressions in `f`. */
export function typeContext(f: GeneratedFile, file: SchemaFile, ctx: EmitContext): TypeRenderContext {
  return { f, file, typesPath: (other) => `/${ctx.outputPath(other, 'types.ts')}` };
}

/** The success body's TypeScript type, `void` when the success response has no body. */
export function resultType(op: HttpOperation, types: TypeRenderContext, indent = ''): string {
  return successBody(op, types, indent).type;
}

/**
 * The success body: its TypeScript type (`void` without one), and whether it is bytes
 * (`Uint8Array`: `format: binary`, or a string or unschematised body of a media type that is not
 * JSON or text), which the client must read as bytes whatever `Content-Type` the server sends.
 */
export function successBody(op: HttpOperation, types: TypeRenderContext, indent = ''): { readonly type: string; readonly binary: boolean } {
  const success = successResponse(op);
  const content = success?.contents.find((c) => c.type && isJsonMediaType(c.mediaType)) ?? success?.contents.find((c) => c.type);
  const type = content?.type
    ? renderBodyType(content.type, content.mediaType, types, indent)
    : success && success.contents.length > 0
      ? opaqueType(success.contents[0]!.mediaType)
      : 'void';
  return { type, binary: type === 'Uint8Array' };
}

/** The request body's TypeScript type, or undefined when the operation has no body. */
export function bodyType(op: HttpOperation, types: TypeRenderContext, indent = ''): string | undefined {
  if (!op.requestBody || op.requestBody.contents.length === 0) return undefined;
  const content = validatedBody(op) ?? op.requestBody.contents[0]!;
  // What the client sends: `readOnly` properties optional, referenced types in their request forms.
  return content.type
    ? renderBodyType(content.type, content.mediaType, { ...types, direction: 'request' }, indent)
    : opaqueType(content.mediaType);
}

/**
 * A body's type as it travels: a string schema under a media type that is neither JSON,
 * text nor a form (`application/octet-stream`, `image/png`, OpenAPI 3.1's `contentMediaType`)
 * is bytes on both ends — the runtime reads it as a `Uint8Array`, never as a string.
 */
function renderBodyType(type: TypeRef, mediaType: string, types: TypeRenderContext, indent: string): string {
  if (type.kind === 'scalar' && (type.format === 'binary' || (type.scalar === 'string' && isBytesMedia(mediaType))))
    return opaqueType(mediaType);
  return renderType(type, types, indent);
}

function isBytesMedia(mediaType: string): boolean {
  const mime = mediaType.toLowerCase();
  // `includes('json')` as the fetch client reads it: `application/x-ndjson` arrives as text.
  return (
    !mime.includes('json') && !mime.startsWith('text/') && mime !== 'application/x-www-form-urlencoded' && !mime.startsWith('multipart/')
  );
}

function opaqueType(mediaType: string): string {
  return mediaType.startsWith('text/') ? 'string' : 'Uint8Array';
}
