/**
 * @module
 * A parsed OpenAPI or Swagger document as plain JSON: the object helpers every part of the
 * OpenAPI loader uses, which dialect a document is, descriptions, and {@link At}, the place in a
 * document a node comes from.
 */
import type { SchemaFormat } from '../../model/model.js';
import type { SourceDocument } from './refs.js';

/** A JSON object of a document. */
export type Json = Record<string, unknown>;

/** A location being converted: the document and the JSON pointer of the node. */
export interface At {
  readonly doc: SourceDocument;
  readonly pointer: string;
}

export const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `true` when the document is an OpenAPI or Swagger document rather than a schema fragment. */
export function isApiDocument(data: unknown): data is Json {
  return isObject(data) && (typeof data['openapi'] === 'string' || data['swagger'] !== undefined);
}

/**
 * The dialect of an OpenAPI/Swagger document, or a sentence saying why it is not supported.
 * @example detectFormat({ openapi: '3.1.0' }) // 'openapi-3.1'
 */
export function detectFormat(data: Json): SchemaFormat | string {
  const swagger = data['swagger'];
  if (swagger !== undefined)
    return String(swagger) === '2.0' ? 'swagger-2.0' : `swagger version '${String(swagger)}' is not supported; use 2.0 or OpenAPI 3.x`;
  const version = String(data['openapi']);
  if (/^3\.0(\.|$)/.test(version)) return 'openapi-3.0';
  if (/^3\.1(\.|$)/.test(version)) return 'openapi-3.1';
  return `openapi version '${version}' is not supported; use 3.0.x, 3.1.x or Swagger 2.0`;
}

/** The text of `description`, trimmed, or undefined. */
export function docOf(node: Json): string | undefined {
  const d = typeof node['description'] === 'string' ? node['description'].trim() : '';
  return d === '' ? undefined : d;
}
