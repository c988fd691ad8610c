/**
 * @module
 * Every name a generated file exports or another generated file imports, in one module: what a
 * service, an operation, a type or a validator is called in `X.server.ts`, `X.client.ts`,
 * `X.grpc.ts`, `X.codec.ts`, `X.types.ts` and `X.validators.ts`. Emitters take names from here and
 * never derive them themselves, so the file that declares a name and the files that import it
 * always agree.
 */
import type { HttpOperation, MessageType, NamedType, Parameter, SchemaFile, Service } from '../model/model.js';
import { UniqueNames } from '../model/names.js';
import { parameterValidated, validatedBody } from './http/operation-view.js';
import { hasDirectionalForms } from './json-schema/index.js';

// ---------------------------------------------------------------------------
// HTTP services and operations (`X.server.ts`, `X.client.ts`)
// ---------------------------------------------------------------------------

/** `IssueApi` */
export function handlerInterfaceName(service: Service): string {
  return `${service.localName}Api`;
}

/** `IssueRoutes` */
export function routesClassName(service: Service): string {
  return `${service.localName}Routes`;
}

/** `IssueClient`: the fetch client class of an HTTP service. */
export function httpClientClassName(service: Service): string {
  return `${service.localName}Client`;
}

/** `issueGetIssueOperation`: the `OperationSpec` constant of an operation in `X.client.ts`. */
export function operationSpecName(op: HttpOperation): string {
  return `${op.localName}Operation`;
}

/** `IssueGetIssueInput` */
export function inputTypeName(op: HttpOperation): string {
  return `${operationPascalName(op)}Input`;
}

/**
 * The operation's name as the start of a type or validator name: `issueGetIssue` → `IssueGetIssue`
 * (see {@link pascalName}).
 */
export function operationPascalName(op: HttpOperation): string {
  return pascalName(op.localName);
}

/**
 * A local name (of an operation or a parameter) as part of a type or validator name: first letter
 * upper-cased, and `constructor$` (a reserved name, escaped) → `Constructor`, since
 * `ConstructorInput` is free of the clash the `$` avoids.
 */
export function pascalName(localName: string): string {
  const name = localName.replace(/\$$/, '');
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

// ---------------------------------------------------------------------------
// Validators (`X.validators.ts`)
// ---------------------------------------------------------------------------

/** `validateIssue`: the validator of a named type. */
export function typeValidatorName(type: NamedType): string {
  return `validate${type.localName}`;
}

/**
 * `validateIssueCreateIssueBody`: the validator of an operation's request body, or undefined
 * when the body has no schema. When that name is taken by a named type's validator, the
 * body's is `validate<OperationPascal>RequestBody`.
 *
 * @example
 * bodyValidatorName(createIssueOperation); // 'validateIssueCreateIssueBody'
 */
export function bodyValidatorName(op: HttpOperation): string | undefined {
  if (!validatedBody(op)) return undefined;
  const pascal = operationPascalName(op);
  const plain = `validate${pascal}Body`;
  return typeValidatorNames(op.parent.parent).has(plain) ? `validate${pascal}RequestBody` : plain;
}

const validatorNamesByFile = new WeakMap<SchemaFile, ReadonlySet<string>>();

function typeValidatorNames(file: SchemaFile): ReadonlySet<string> {
  let names = validatorNamesByFile.get(file);
  if (!names) validatorNamesByFile.set(file, (names = new Set(file.types.map(typeValidatorName))));
  return names;
}

const paramNamesByFile = new WeakMap<SchemaFile, ReadonlyMap<Parameter, string>>();

/**
 * `validateListPetsFilterParam`: the validator of a parameter that is checked by its schema (see
 * `parameterValidated` in `http/operation-view.ts`), or undefined. Unique in the file: a name taken
 * by a type's or a body's validator, or by an earlier parameter's, gets a number.
 *
 * @example
 * paramValidatorName(listPets, filter); // 'validateListPetsFilterParam'
 */
export function paramValidatorName(op: HttpOperation, p: Parameter): string | undefined {
  const file = op.parent.parent;
  let names = paramNamesByFile.get(file);
  if (!names) {
    const ops = fileOperations(file);
    const taken = new UniqueNames([...typeValidatorNames(file), ...ops.flatMap((o) => bodyValidatorName(o) ?? [])]);
    const byParam = new Map<Parameter, string>();
    for (const o of ops) {
      for (const param of o.parameters) {
        if (parameterValidated(param))
          byParam.set(param, taken.take(`validate${operationPascalName(o)}${pascalName(param.localName)}Param`));
      }
    }
    paramNamesByFile.set(file, (names = byParam));
  }
  return names.get(p);
}

function fileOperations(file: SchemaFile): HttpOperation[] {
  return file.services.flatMap((s) => s.operations.filter((o): o is HttpOperation => o.kind === 'http'));
}

// ---------------------------------------------------------------------------
// Types (`X.types.ts`)
// ---------------------------------------------------------------------------

const requestNamesByFile = new WeakMap<SchemaFile, ReadonlyMap<NamedType, string>>();

/**
 * The name of a type's request form, declared beside it in `X.types.ts` when its request and
 * response forms differ (a required `readOnly` `id`, a required `writeOnly` `password`):
 * `PetRequest`, or, when the schema already has a type of that name, `PetRequestForm`,
 * `PetRequest2`, … in declaration order.
 *
 * @example
 * requestTypeName(pet); // 'PetRequest'
 */
export function requestTypeName(type: NamedType): string {
  let names = requestNamesByFile.get(type.parent);
  if (!names) {
    const taken = new Set(type.parent.types.map((t) => t.localName));
    const byType = new Map<NamedType, string>();
    for (const t of type.parent.types) {
      if (!hasDirectionalForms(t)) continue;
      const candidates = [`${t.localName}Request`, `${t.localName}RequestForm`];
      let name = candidates.find((c) => !taken.has(c));
      for (let i = 2; name === undefined; i++) if (!taken.has(`${t.localName}Request${i}`)) name = `${t.localName}Request${i}`;
      taken.add(name);
      byType.set(t, name);
    }
    requestNamesByFile.set(type.parent, (names = byType));
  }
  const name = names.get(type);
  if (name === undefined) throw new Error(`${type.fullName} has no request form (its request and response forms are the same)`);
  return name;
}

// ---------------------------------------------------------------------------
// RPC services (`X.server.ts`, `X.client.ts`, `X.grpc.ts`, `X.codec.ts`)
// ---------------------------------------------------------------------------

/** `GetServiceRequestCodec` */
export function codecName(message: MessageType): string {
  return `${message.localName}Codec`;
}

/**
 * The name a service's `…Service` names start from: its local name, less a `Service` it already ends
 * with (`TaskService` gives `TaskService` and `TaskServiceDescriptor`, not `TaskServiceService`),
 * unless another service of the file would then have the same names (`Task` beside `TaskService`).
 *
 * @example
 * serviceStem(taskService); // 'Task'
 */
export function serviceStem(service: Service): string {
  const name = service.localName;
  const stem = name.replace(/Service$/, '');
  if (stem === '' || stem === name) return name;
  const clash = service.parent.services.some(
    (other) => other !== service && (other.localName === stem || other.localName === `${stem}Service`),
  );
  return clash ? name : stem;
}

/** `SystemServiceDescriptor` (`TaskServiceDescriptor` for a service named `TaskService`) */
export function serviceDescriptorName(service: Service): string {
  return `${serviceStem(service)}ServiceDescriptor`;
}

/** `SystemService`: the interface a hand-written implementation of a service provides (`X.server.ts`). */
export function rpcServiceInterfaceName(service: Service): string {
  return `${serviceStem(service)}Service`;
}

/** `SystemClient`: the interface the Connect client (`X.client.ts`) and the gRPC client (`X.grpc.ts`) share. */
export function rpcClientInterfaceName(service: Service): string {
  return `${service.localName}Client`;
}

/** `SystemMethods`: the method table type of the descriptor. */
export function methodsTypeName(service: Service): string {
  return `${service.localName}Methods`;
}

/** `SystemRoutes` */
export function connectRoutesClassName(service: Service): string {
  return `${service.localName}Routes`;
}

/** `systemConnectRoutes`: the function serving a service over Connect on Hono. */
export function connectRoutesFunctionName(service: Service): string {
  return `${lowerFirst(service.localName)}ConnectRoutes`;
}

/** `createSystemConnectClient`: the factory of a service's Connect client. */
export function connectClientFactoryName(service: Service): string {
  return `create${service.localName}ConnectClient`;
}

/** `addSystemServiceToGrpc`: the function adding a service's implementation to a grpc-js server (`X.grpc.ts`). */
export function grpcBinderName(service: Service): string {
  return `add${serviceStem(service)}ServiceToGrpc`;
}

/** `createSystemGrpcClient`: the factory of a service's gRPC client (`X.grpc.ts`). */
export function grpcClientFactoryName(service: Service): string {
  return `create${service.localName}GrpcClient`;
}

/**
 * A name with its first letter in lower case, for variables in examples and function names:
 * `System` → `system`.
 */
export function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}
