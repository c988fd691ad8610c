/**
 * @module
 * An object-valued query parameter (OpenAPI's `style` and `explode`): its fields gathered from the
 * query, converted by type as form fields are, then validated as a whole; violations are named
 * `filter/age`.
 */

import type { FormBodyReader } from '../form-coercion.js';
import { formBody } from '../form-coercion.js';
import type { ParamSource, RawParam } from '../metadata/raw.js';
import type { ObjectQuery, ParamOptions } from '../types.js';
import { reportFailedValidation } from '../validation.js';
import type { Exchange } from './exchange.js';
import type { Extractor, ParamPlan, ParamScope } from './extract.js';
import { atRegistration, compileValidator } from './extract-common.js';

/** Compiles `@QueryParam(name, { object })`. */
export function objectQueryPlan(
  param: RawParam,
  source: ParamSource & { name: string },
  scope: ParamScope,
  options: ParamOptions,
  object: ObjectQuery,
): ParamPlan {
  const name = source.name;
  const validator = compileValidator(options, scope);
  const typed = atRegistration(scope, () => formBody(object.fields, validator ? { validate: validator } : {}));
  const reader = typed.reader as FormBodyReader;
  const validate = typed.validate!;
  const fieldNames = Object.keys(object.fields);
  const explode = object.explode ?? true;
  const max = scope.state.maxViolations;
  const gather = (x: Exchange): Record<string, string | string[]> | undefined => {
    const form: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
    if (object.style === 'deepObject') {
      for (const [key, values] of Object.entries(x.c.req.queries())) {
        if (key.length > name.length + 2 && key.startsWith(`${name}[`) && key.endsWith(']'))
          form[key.slice(name.length + 1, -1)] = values.length === 1 ? values[0]! : values;
      }
    } else if (explode) {
      for (const field of fieldNames) {
        const values = x.c.req.queries(field);
        if (values !== undefined) form[field] = values.length === 1 ? values[0]! : values;
      }
    } else {
      const text = x.c.req.query(name);
      if (text === undefined) return undefined;
      const parts = text === '' ? [] : text.split(',');
      for (let i = 0; i < parts.length; i += 2) form[parts[i]!] = parts[i + 1] ?? '';
    }
    return Object.keys(form).length > 0 ? form : undefined;
  };
  const required = options.required === true;
  const extract: Extractor = (x, violations) => {
    const form = gather(x);
    if (form === undefined) {
      if (param.hasDefault) return param.defaultValue;
      if (required) violations.push({ location: 'query', name, message: 'is required' });
      return undefined;
    }
    return reader.readForm(form).then((value) => {
      if (!validate(value)) reportFailedValidation(violations, validate, 'query', name, max);
      return value;
    });
  };
  return { extract, source, needs: 'none', async: true };
}
