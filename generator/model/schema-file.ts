/**
 * @module
 * Questions about a {@link SchemaFile} as a whole that emitters of every kind ask.
 */
import type { SchemaFile } from './model.js';

/**
 * True for files loaded from `.proto`, whose JSON form follows the proto3 JSON mapping.
 *
 * @example
 * isProtoFile(systemProto); // true
 */
export function isProtoFile(file: SchemaFile): boolean {
  return file.format === 'proto3' || file.format === 'proto2';
}
