/**
 * @module
 * What every parameter source's compilation shares: registration errors that name the parameter,
 * the validator of `validate`/`schema`, the reader-type check, and bounded violation reporting.
 */
import { typeName } from '../convert/convert.js';
import type { Violation, ViolationLocation } from '../errors.js';
import { errorMessage, RegistrationError } from '../errors.js';
import type { ParamOptions, TypeRef, ValidateFunction, ValueReader } from '../types.js';
import { createDefaultAjv, reportFailedValidation } from '../validation.js';
import type { ParamScope } from './extract.js';

/** Runs registration-time compilation; a bad option (an unknown type, a broken pattern) names its parameter. */
export function atRegistration<T>(scope: ParamScope, compile: () => T): T {
  try {
    return compile();
  } catch (e) {
    if (e instanceof RegistrationError) throw e;
    throw new RegistrationError(`${scope.where}: ${errorMessage(e)}`);
  }
}

/** The validator of `validate`, or of `schema` compiled with the router's ajv. */
export function compileValidator(options: ParamOptions, scope: ParamScope): ValidateFunction | undefined {
  if (options.validate) return options.validate;
  if (!options.schema) return undefined;
  try {
    return (scope.state.ajv ??= createDefaultAjv()).compile(options.schema);
  } catch (e) {
    throw new RegistrationError(`${scope.where}: invalid JSON Schema: ${errorMessage(e)}`);
  }
}

/** A reader declaring the type it produces must produce the parameter's type (unless `@SuppressCheck`). */
export function checkReaderType(reader: ValueReader | undefined, type: TypeRef | undefined, scope: ParamScope, what: string): void {
  if (!reader?.type || type === undefined || scope.suppressCheck) return;
  const fits =
    reader.type === type ||
    (typeof reader.type === 'function' &&
      typeof type === 'function' &&
      (reader.type.prototype instanceof type || type.prototype instanceof reader.type)) ||
    typeName(reader.type) === typeName(type);
  if (!fits) {
    throw new RegistrationError(
      `${scope.where}: ${what} reader produces ${typeName(reader.type)} but the parameter is ${typeName(type)} ` +
        '(add @SuppressCheck() to skip this check)',
    );
  }
}

/**
 * The checks after conversion, compiled once: constraints (`minimum`, `pattern`, …) and the
 * validator. Reports at most one past the router's `maxViolations` in all (see `violationsError`).
 */
export function compileChecks(
  options: ParamOptions,
  scope: ParamScope,
  constraints: ((value: unknown, limit: number) => string[]) | undefined,
  location: ViolationLocation,
  name: string,
): ((value: unknown, violations: Violation[]) => void) | undefined {
  const validate = compileValidator(options, scope);
  if (!constraints && !validate) return undefined;
  const max = scope.state.maxViolations;
  return (value, violations) => {
    if (constraints) {
      const room = max + 1 - violations.length;
      if (room > 0) for (const message of constraints(value, room)) violations.push({ location, name, message });
    }
    // Call the validator directly: the valid case must not allocate.
    if (validate && !validate(value)) reportFailedValidation(violations, validate, location, name, max);
  };
}
