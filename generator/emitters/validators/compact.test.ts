import { describe, expect, it } from 'vitest';
import { compactErrors, dropUnusedSchemas } from './compact.js';

/** One error block as ajv 8 prints it with `allErrors` and `code.lines`. */
const BLOCK = [
  'if(typeof data.id !== "string"){',
  'const err3 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};',
  'if(vErrors === null){',
  'vErrors = [err3];',
  '}',
  'else {',
  'vErrors.push(err3);',
  '}',
  'errors++;',
  '}',
].join('\n');

function run(code: string): unknown[] | null {
  const { code: compacted, helper } = compactErrors(code);
  // The block's own scope, as in a compiled validator.
  const body = `${helper ?? ''}\nlet vErrors = null; let errors = 0;\n${compacted}\nreturn vErrors;`;
  return new Function('data', 'instancePath', body)({ id: 1 }, '/item') as unknown[] | null;
}

describe('compactErrors', () => {
  it('folds an error block into one helper call', () => {
    const { code, helper } = compactErrors(BLOCK);
    expect(code).toBe(
      [
        'if(typeof data.id !== "string"){',
        'vErrors = pushError(vErrors, instancePath+"/id", "#/properties/id/type", "type", {type: "string"}, "must be string");',
        'errors++;',
        '}',
      ].join('\n'),
    );
    expect(helper).toContain('function pushError(list, instancePath, schemaPath, keyword, params, message) {');
  });

  it('reports the same error objects as the long form, key for key', () => {
    const expected = [
      {
        instancePath: '/item/id',
        schemaPath: '#/properties/id/type',
        keyword: 'type',
        params: { type: 'string' },
        message: 'must be string',
      },
    ];
    expect(run(BLOCK)).toEqual(expected);
    expect(Object.keys(run(BLOCK)![0]!)).toEqual(Object.keys(expected[0]!));
    // Two blocks: the second appends to the list the first created.
    expect(run(`${BLOCK}\n${BLOCK.replaceAll('err3', 'err4')}`)).toEqual([...expected, ...expected]);
  });

  it('keeps shorthand paths and computed messages', () => {
    const block = BLOCK.replace('instancePath:instancePath+"/id"', 'instancePath').replace(
      'message:"must be string"',
      'message:"must match format \\""+"uuid"+"\\""',
    );
    expect(compactErrors(block).code).toContain(
      'vErrors = pushError(vErrors, instancePath, "#/properties/id/type", "type", {type: "string"}, "must match format \\""+"uuid"+"\\"");',
    );
  });

  it('leaves code of another shape as it is, without the helper', () => {
    const other = BLOCK.replace('vErrors.push(err3);', 'vErrors.push(err3, extra);');
    expect(compactErrors(other)).toEqual({ code: other });
  });
});

describe('dropUnusedSchemas', () => {
  it('drops the schema constants no code reads, and keeps those it does', () => {
    const code = [
      'export const validateTeam = validate10;',
      'const schema12 = {"type":"object","description":"A team"};',
      'const schema13 = {"type":"object","properties":{"permission":{"enum":["read","write"]}}};',
      'function validate10(data) {',
      'if(!((data.permission === "read") || (data.permission === "write"))){ params:{allowedValues: schema13.properties.permission.enum} }',
      '}',
    ].join('\n');
    expect(dropUnusedSchemas(code)).toBe(code.replace('const schema12 = {"type":"object","description":"A team"};\n', ''));
  });
});
