import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { arrayOf, message, ref, run, schemaFile, str } from '../../../test/support/model-fixtures.js';
import { typeCheck } from '../../../test/support/tsc-check.js';
import type { MessageType, TypeRef } from '../../model/model.js';
import { GeneratedFile } from '../../printer/generated-file.js';
import { renderType, renderTypeAnnotation } from './render.js';
import { typesEmitter } from './types.js';

const file = schemaFile('api.yaml', 'openapi-3.1', 'api');
const cat = message(file, 'Cat', [
  { name: 'kind', type: str, presence: 'required' },
  { name: 'meows', type: { kind: 'scalar', scalar: 'bool' } },
]);
const dog = message(file, 'Dog', [
  { name: 'kind', type: str, presence: 'required' },
  { name: 'barks', type: { kind: 'scalar', scalar: 'bool' } },
]);

function render(type: TypeRef): string {
  const f = new GeneratedFile({ path: 'api.types.ts', runtimeImport: 'loom' });
  return renderType(type, { f, file, typesPath: () => '/api.types.ts' });
}

const tmp = mkdtempSync(join(tmpdir(), 'loom-types-render-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('renderType', () => {
  it('spells unions, discriminated unions and intersections', () => {
    expect(render({ kind: 'union', mode: 'oneOf', variants: [ref(cat), ref(dog)] })).toBe('Cat | Dog');
    expect(
      render({
        kind: 'union',
        mode: 'oneOf',
        variants: [ref(cat), ref(dog)],
        discriminator: { propertyName: 'kind', mapping: { cat: ref(cat), dog: ref(dog) } },
      }),
    ).toBe("(Cat & { kind: 'cat' }) | (Dog & { kind: 'dog' })");
    expect(render({ kind: 'intersection', parts: [ref(cat), { kind: 'object', properties: [], additionalProperties: true }] })).toBe(
      'Cat & { [key: string]: unknown }',
    );
  });

  it('parenthesizes unions inside arrays and adds null last', () => {
    expect(render(arrayOf({ kind: 'union', mode: 'anyOf', variants: [str, { kind: 'scalar', scalar: 'integer' }] }))).toBe(
      '(string | number)[]',
    );
    expect(render({ kind: 'array', items: ref(cat), nullable: true })).toBe('Cat[] | null');
    expect(render(ref(cat, true))).toBe('Cat | null');
  });

  it('maps OpenAPI scalars: int64 as number, binary as Blob, literals', () => {
    expect(render({ kind: 'scalar', scalar: 'int64', format: 'int64' })).toBe('number');
    expect(render({ kind: 'scalar', scalar: 'string', format: 'binary' })).toBe('Blob');
    expect(render({ kind: 'literal', value: "it's" })).toBe("'it\\'s'");
    expect(render({ kind: 'unknown' })).toBe('unknown');
  });

  it('prints inline objects over several lines, quoting keys that are not identifiers', () => {
    expect(
      render({
        kind: 'object',
        properties: [
          {
            name: 'x-rate',
            required: true,
            type: { kind: 'scalar', scalar: 'integer' },
            readOnly: false,
            writeOnly: false,
            doc: 'Calls left',
          },
          {
            name: 'tags',
            required: false,
            type: { kind: 'map', key: { kind: 'scalar', scalar: 'string' }, value: str },
            readOnly: false,
            writeOnly: false,
          },
        ],
        additionalProperties: false,
      }),
    ).toBe(`{
  /** Calls left */
  'x-rate': number;
  tags?: { [key: string]: string };
}`);
  });
});

describe('renderTypeAnnotation', () => {
  it('keeps short types on the line and breaks long unions one variant per line', () => {
    const f = new GeneratedFile({ path: 'api.types.ts', runtimeImport: 'loom' });
    const ctx = { f, file, typesPath: () => '/api.types.ts' };
    const states = ['pending', 'success', 'error', 'failure', 'warning', 'skipped', 'cancelled'];
    const union: TypeRef = { kind: 'union', mode: 'oneOf', variants: states.map((value) => ({ kind: 'literal', value })), nullable: true };
    expect(renderTypeAnnotation(str, ctx, '  ')).toBe(' string');
    expect(renderTypeAnnotation(union, ctx, '  ')).toBe(
      "\n    | 'pending'\n    | 'success'\n    | 'error'\n    | 'failure'\n    | 'warning'\n    | 'skipped'\n    | 'cancelled'\n    | null",
    );
  });
});

describe('allOf parents', () => {
  it('extends named parts and omits fields inherited unchanged; the output type-checks', async () => {
    const f = schemaFile('pets.yaml', 'openapi-3.0', 'pets');
    const pet = message(f, 'Pet', [{ name: 'name', type: str, presence: 'required' }]);
    const petFields = pet.fields as MessageType['fields'];
    const kitten = message(f, 'Kitten', [], { extends: [ref(pet)] });
    (kitten as { fields: MessageType['fields'] }).fields = [
      { ...petFields[0]!, parent: kitten },
      {
        ...petFields[0]!,
        parent: kitten,
        name: 'age',
        jsonName: 'age',
        localName: 'age',
        type: { kind: 'scalar', scalar: 'integer' },
        presence: 'optional',
      },
    ];
    message(f, 'Shelter', [
      { name: 'pets', type: arrayOf({ kind: 'union', mode: 'oneOf', variants: [ref(pet), ref(kitten)] }) },
      { name: 'extra', type: { kind: 'map', key: { kind: 'scalar', scalar: 'string' }, value: ref(pet, true) } },
    ]);
    const out = run([f], [typesEmitter]).get('pets.types.ts')!;
    expect(out).toContain(`export interface Kitten extends Pet {
  age?: number;
}`);
    expect(out).toContain('  pets?: (Pet | Kitten)[];\n  extra?: { [key: string]: Pet | null };\n');
    writeFileSync(join(tmp, 'pets.types.ts'), out);
    expect(await typeCheck(tmp)).toBe('');
  });
});
