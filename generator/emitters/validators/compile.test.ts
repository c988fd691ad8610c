import { describe, expect, it } from 'vitest';
import { compileStandalone, dependencyOrder } from './compile.js';

/** A recursive type (`Repo.parent`), a shared leaf (`User`) and a type reaching both. */
const DOC = {
  $id: 'loom:x.json',
  $defs: {
    Issue: { type: 'object', properties: { repo: { $ref: '#/$defs/Repo' }, user: { $ref: '#/$defs/User' } } },
    Repo: { type: 'object', properties: { parent: { $ref: '#/$defs/Repo' }, owner: { $ref: '#/$defs/User' } } },
    User: { type: 'object', properties: { name: { type: 'string' }, default: { $ref: '#/$defs/Tag' } }, default: { $ref: 'not-a-ref' } },
    Tag: { type: 'string', enum: ['$ref'] },
  },
};

const ref = (name: string) => `loom:x.json#/$defs/${name}`;

describe('dependencyOrder', () => {
  it('puts every schema after the ones it references, cycles cut where they close', () => {
    expect(dependencyOrder([DOC], [ref('Issue')])).toEqual([ref('Tag'), ref('User'), ref('Repo'), ref('Issue')]);
  });

  it('reads a property named like a data keyword as a schema, and data as data', () => {
    // `User.properties.default` is a schema (it reaches Tag); `User.default` is a value.
    expect(dependencyOrder([DOC], [ref('User')])).toEqual([ref('Tag'), ref('User')]);
  });

  it('leaves references it cannot resolve to ajv', () => {
    expect(dependencyOrder([DOC], ['loom:other.json#/$defs/Nope', ref('Tag')])).toEqual([ref('Tag')]);
  });
});

describe('compileStandalone', () => {
  it('compiles each type once, whatever order the exports come in', () => {
    const exports = new Map([
      ['validateIssue', ref('Issue')],
      ['validateRepo', ref('Repo')],
      ['validateUser', ref('User')],
      ['validateTag', ref('Tag')],
    ]);
    const code = compileStandalone({ documents: [DOC], exports });
    expect(code.match(/^function validate\d+\(/gm)).toHaveLength(4);
  });

  it('still validates through the shared functions', async () => {
    const exports = new Map([
      ['validateIssue', ref('Issue')],
      ['validateUser', ref('User')],
    ]);
    const code = compileStandalone({ documents: [DOC], exports });
    const module = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as Record<
      string,
      ((data: unknown) => boolean) & { errors: unknown[] | null }
    >;
    const validateIssue = module['validateIssue']!;
    expect(validateIssue({ repo: { parent: { owner: { name: 'a' } } }, user: { name: 'b' } })).toBe(true);
    expect(validateIssue({ repo: { parent: { owner: { name: 1 } } } })).toBe(false);
    expect(validateIssue.errors).toMatchObject([{ instancePath: '/repo/parent/owner/name', keyword: 'type' }]);
  });

  it("still checks each document against the meta-schema (only the documents' own functions are compiled for their source alone)", () => {
    const compile = (schema: object) => () =>
      compileStandalone({
        documents: [{ $id: 'loom:bad.json', $defs: { A: schema } }],
        exports: new Map([['validateA', 'loom:bad.json#/$defs/A']]),
      });
    expect(compile({ type: 'nope' })).toThrow(/type must be JSONType/);
    expect(compile({ minLength: 'x' })).toThrow(/minLength/);
    expect(compile({ pattern: '[' })).toThrow(/Invalid regular expression/);
  });
});
