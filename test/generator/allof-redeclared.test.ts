/**
 * @module
 * A property that two parts of an `allOf` both declare — a subtype that adds a description to an
 * inherited property, or narrows its bounds — keeps everything every part says of it: the
 * generated types compile (the subtype still extends its base), and the validators enforce the
 * base's `required` and bounds together with the subtype's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../generator/cli/cli.js';
import { typeCheck } from '../support/tsc-check.js';

const SCHEMA = `openapi: 3.0.3
info: { title: Shapes, version: '1' }
paths: {}
components:
  schemas:
    Base:
      type: object
      required: [name]
      properties:
        name: { type: string, maxLength: 5 }
        size: { type: integer }
        tag: { type: string, pattern: '^[a-z]+$' }
    Sub:
      allOf:
        - $ref: '#/components/schemas/Base'
        - properties:
            name: { description: The sub's name. }
            size: { type: integer, minimum: 1 }
            tag: { type: string, pattern: '^.{2,}$' }
            extra: { type: string }
    Holder:
      type: object
      properties:
        pair:
          allOf:
            - { type: object, properties: { a: { type: string, maxLength: 3 } } }
            - { type: object, required: [a], properties: { a: { type: string, minLength: 2 } } }
`;

type Validator = (value: unknown) => boolean;
let validators: Record<string, Validator>;
const tmp = mkdtempSync(join(tmpdir(), 'loom-allof-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

beforeAll(async () => {
  writeFileSync(join(tmp, 'api.yaml'), SCHEMA);
  let stderr = '';
  const code = await runCli(['generate', 'api.yaml', '--out', 'gen', '--runtime', 'loom', '--quiet'], {
    cwd: tmp,
    stdout: () => {},
    stderr: (t) => (stderr += t),
  });
  expect([code, stderr]).toEqual([0, '']);
  validators = (await import(pathToFileURL(join(tmp, 'gen/api.validators.js')).href)) as Record<string, Validator>;
}, 60_000);

describe('a property two allOf parts declare', () => {
  it('keeps the base type in the subtype, which still extends it and compiles', async () => {
    const types = readFileSync(join(tmp, 'gen/api.types.ts'), 'utf8');
    expect(types).toContain('export interface Sub extends Base {');
    expect(types).not.toContain('unknown');
    expect(await typeCheck(tmp)).toBe('');
  }, 60_000);

  it("is validated by what every part says: the base's required and bounds, and the subtype's", () => {
    const { validateSub, validateHolder } = validators as { validateSub: Validator; validateHolder: Validator };
    expect(validateSub({ name: 'abc', size: 1, tag: 'ab' })).toBe(true);
    expect(validateSub({})).toBe(false); // name is required by the base
    expect(validateSub({ name: 'abcdefgh' })).toBe(false); // the base's maxLength
    expect(validateSub({ name: 'abc', size: 0 })).toBe(false); // the subtype's minimum
    expect(validateSub({ name: 'abc', tag: 'a' })).toBe(false); // the subtype's pattern
    expect(validateSub({ name: 'abc', tag: 'A1' })).toBe(false); // the base's pattern
    expect(validateHolder({ pair: { a: 'ab' } })).toBe(true);
    expect(validateHolder({ pair: { a: 'abcdef' } })).toBe(false);
    expect(validateHolder({ pair: { a: 'a' } })).toBe(false);
    expect(validateHolder({ pair: {} })).toBe(false);
  });
});
