/**
 * The validators the generator prints for proto messages against the codec's `fromJson`: the
 * whole pipeline (loaders, `json-schema/proto-json.ts`, ajv's standalone code, compaction, formats)
 * must accept exactly the cases of `proto-json-cases.ts` that `fromJson` accepts.
 */
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { generateInline } from '../support/generate-inline.js';
import {
  type CaseMessage,
  type CaseSchemas,
  describeAgreement,
  LEGACY,
  loadCaseSchemas,
  ORDERS,
  type Pair,
} from '../support/proto-json-cases.js';

type Validators = Record<string, (data: unknown) => boolean>;

let schemas: CaseSchemas;
let cleanup: () => void;
const validators = new Map<CaseMessage, (data: unknown) => boolean>();

beforeAll(async () => {
  schemas = await loadCaseSchemas();
  const generated = await generateInline('proto-json-validators-gen', { 'orders.proto': ORDERS, 'legacy.proto': LEGACY });
  cleanup = generated.cleanup;
  const orders = (await import(/* @vite-ignore */ join(generated.dir, 'orders.validators.js'))) as Validators;
  const legacy = (await import(/* @vite-ignore */ join(generated.dir, 'legacy.validators.js'))) as Validators;
  validators.set('v.Order', orders['validateOrder']!);
  validators.set('old.Account', legacy['validateAccount']!);
});
afterAll(() => {
  cleanup?.();
  schemas?.remove();
});

function pair(typeName: CaseMessage): Pair {
  return { validate: validators.get(typeName)!, codec: schemas.codec(typeName) };
}

describeAgreement('generated proto JSON validators agree with fromJson', pair);
