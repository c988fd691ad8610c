/**
 * Proto JSON validator schemas against the codec's `fromJson`: the schemas of
 * `json-schema/proto-json.ts`, compiled by ajv with the options and formats generated validators use,
 * must accept exactly the cases of `proto-json-cases.ts` that `fromJson` accepts.
 */
import { Ajv } from 'ajv';
import { afterAll, beforeAll } from 'vitest';
import { ONE_MEMBER, ONE_NAME_EACH, protoNamedTypeSchema } from '../../generator/emitters/json-schema/proto-json.js';
import { PROTO_FORMATS } from '../../generator/emitters/json-schema/proto-scalars.js';
import { reachableTypes } from '../../generator/emitters/rpc/descriptor.js';
import { type CaseMessage, type CaseSchemas, describeAgreement, loadCaseSchemas, type Pair } from '../support/proto-json-cases.js';

/** The options `compileStandalone` gives ajv (validators/compile.ts), minus code generation. */
function newAjv(): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    discriminator: true,
    inlineRefs: false,
    unicodeRegExp: false,
    ownProperties: true,
    logger: false,
  });
  // Loom's two keywords for proto messages (see proto-json.ts), as their documentation says.
  const present = (o: Record<string, unknown>, k: string) => o[k] !== undefined && Object.hasOwn(o, k);
  ajv.addKeyword({
    keyword: ONE_NAME_EACH,
    type: 'object',
    validate: (fields: string[][], data: Record<string, unknown>) =>
      fields.every((names) => names.filter((k) => present(data, k)).length <= 1),
  });
  ajv.addKeyword({
    keyword: ONE_MEMBER,
    type: 'object',
    validate: (oneofs: string[][][], data: Record<string, unknown>) =>
      oneofs.every((members) => members.filter((names) => names.some((k) => present(data, k) && data[k] !== null)).length <= 1),
  });
  // The formats' sources, evaluated as generated validators evaluate them.
  for (const [name, source] of Object.entries(PROTO_FORMATS)) {
    ajv.addFormat(name, { type: 'string', validate: new Function(`return ${source};`)() as (s: string) => boolean });
  }
  return ajv;
}

let schemas: CaseSchemas;
const pairs = new Map<CaseMessage, Pair>();

beforeAll(async () => {
  schemas = await loadCaseSchemas();
});
afterAll(() => schemas.remove());

/** Validator and codec of one message (built once). */
function pair(typeName: CaseMessage): Pair {
  let found = pairs.get(typeName);
  if (!found) {
    const defs: Record<string, unknown> = {};
    for (const type of reachableTypes(schemas.files.get(typeName)!))
      defs[type.fullName] = protoNamedTypeSchema(type, { refTo: (t) => `#/$defs/${t.fullName}` });
    const validate = newAjv().addSchema({ $id: 'loom:test', $defs: defs }).getSchema(`loom:test#/$defs/${typeName}`)!;
    found = { validate: (data) => validate(data) as boolean, codec: schemas.codec(typeName) };
    pairs.set(typeName, found);
  }
  return found;
}

describeAgreement('proto JSON validator schemas agree with fromJson', pair);
