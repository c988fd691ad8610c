/**
 * @module
 * Prints JSON data as a TypeScript object literal the way a person would write it:
 * 2-space indent, bare keys where they are identifiers, single-quoted strings,
 * short arrays of scalars on one line.
 */

import type { JsonValue } from '../model/model.js';
import { stringLiteral } from './generated-file.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A TypeScript literal for a JSON value.
 *
 * @example
 * tsLiteral({ type: 'object', required: ['id'] });
 * // "{\n  type: 'object',\n  required: ['id'],\n}"
 */
export function tsLiteral(value: unknown, indent = ''): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return stringLiteral(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => tsLiteral(v, inner));
    const oneLine = `[${items.join(', ')}]`;
    if (value.every((v) => v === null || typeof v !== 'object') && oneLine.length + indent.length <= 100) return oneLine;
    return `[\n${items.map((i) => `${inner}${i},`).join('\n')}\n${indent}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, JsonValue | undefined>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([k, v]) => `${inner}${IDENTIFIER.test(k) ? k : stringLiteral(k)}: ${tsLiteral(v, inner)},`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
  throw new Error(`not JSON: ${String(value)}`);
}
