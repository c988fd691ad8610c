import { describe, expect, it } from 'vitest';
import { compileValidators, MAX_ERRORS } from './codegen.js';

/** A recursive type (`Repo.parent`), a shared leaf (`User`) and a type reaching both. */
const DOC = {
  $id: 'loom:x.json',
  $defs: {
    Issue: { type: 'object', properties: { repo: { $ref: '#/$defs/Repo' }, user: { $ref: '#/$defs/User' } } },
    Repo: { type: 'object', properties: { parent: { $ref: '#/$defs/Repo' }, owner: { $ref: '#/$defs/User' } } },
    User: { type: 'object', properties: { name: { type: 'string' }, default: { $ref: '#/$defs/Tag' } }, default: { $ref: 'not-a-ref' } },
    Tag: { type: 'string', enum: ['$ref'] },
    Tags: { type: 'array', items: { $ref: '#/$defs/Tag' } },
  },
};

const ref = (name: string) => `loom:x.json#/$defs/${name}`;

type Validate = ((data: unknown) => boolean) & { errors: { instancePath: string; keyword: string; message?: string }[] | null };

async function load(code: string): Promise<Record<string, Validate>> {
  return (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as Record<string, Validate>;
}

describe('compileValidators', () => {
  it('compiles each type once, whatever order the exports come in', () => {
    const exports = new Map([
      ['validateIssue', ref('Issue')],
      ['validateRepo', ref('Repo')],
      ['validateUser', ref('User')],
      ['validateTag', ref('Tag')],
    ]);
    const { code } = compileValidators({ documents: [DOC], exports });
    expect(code.match(/^function v\d+\(/gm)).toHaveLength(4);
  });

  it('still validates through the shared functions, recursion included', async () => {
    const exports = new Map([
      ['validateIssue', ref('Issue')],
      ['validateUser', ref('User')],
    ]);
    const { validateIssue } = await load(compileValidators({ documents: [DOC], exports }).code);
    expect(validateIssue!({ repo: { parent: { owner: { name: 'a' } } }, user: { name: 'b' } })).toBe(true);
    expect(validateIssue!({ repo: { parent: { owner: { name: 1 } } } })).toBe(false);
    expect(validateIssue!.errors).toMatchObject([{ instancePath: '/repo/parent/owner/name', keyword: 'type', message: 'must be string' }]);
  });

  it('calls the validators of other files instead of compiling their types', () => {
    const doc = { $id: 'loom:a.json', $defs: { A: { type: 'object', properties: { b: { $ref: 'loom:b.json#/$defs/B' } } } } };
    const { code, externals } = compileValidators({ documents: [doc], exports: new Map([['validateA', 'loom:a.json#/$defs/A']]) });
    expect(externals).toEqual([{ documentId: 'loom:b.json', name: 'validateB' }]);
    expect(code).toContain('__loomExternal0__.check(');
  });

  it(`records at most ${MAX_ERRORS} errors and stops checking, however long the input`, async () => {
    const { validateTags } = await load(compileValidators({ documents: [DOC], exports: new Map([['validateTags', ref('Tags')]]) }).code);
    const hostile = Array.from({ length: 100_000 }, () => 'nope');
    const started = performance.now();
    expect(validateTags!(hostile)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(validateTags!.errors).toHaveLength(MAX_ERRORS + 1);
    expect(validateTags!.errors!.at(-1)).toMatchObject({ keyword: 'truncated' });
    expect(validateTags!.errors![0]).toMatchObject({ instancePath: '/0', keyword: 'enum' });
  });

  it('refuses what cannot be compiled, naming the keyword', () => {
    const compile = (schema: object) => () =>
      compileValidators({
        documents: [{ $id: 'loom:bad.json', $defs: { A: schema } }],
        exports: new Map([['validateA', 'loom:bad.json#/$defs/A']]),
      });
    expect(compile({ type: 'nope' })).toThrow(/type must be JSONType/);
    expect(compile({ minLength: 'x' })).toThrow(/minLength/);
    expect(compile({ pattern: '[' })).toThrow(/Invalid regular expression/);
  });
});
