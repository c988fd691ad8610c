/**
 * @module
 * Small hand-built models for emitter tests: the loaders are tested on their own,
 * so emitter tests state exactly the model they feed in.
 */

import type { EmitResult, Emitter } from '../../generator/emit.js';
import { emit } from '../../generator/emit.js';
import type {
  EnumType,
  Field,
  HttpOperation,
  MessageType,
  NamedType,
  Parameter,
  RpcOperation,
  SchemaFile,
  SchemaFormat,
  Service,
  TypeRef,
} from '../../generator/model/model.js';
import { loadTemplates } from '../../generator/templates.js';

/** A model node under construction: fixtures build nodes field by field, arrays included, then hand them out read-only. */
type Draft<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? U[] : T[K] };

export const str: TypeRef = { kind: 'scalar', scalar: 'string' };
export const bool: TypeRef = { kind: 'scalar', scalar: 'bool' };
export const int64: TypeRef = { kind: 'scalar', scalar: 'int64' };
export const int32: TypeRef = { kind: 'scalar', scalar: 'int32' };
export const ref = (target: NamedType, nullable?: boolean): TypeRef => ({ kind: 'ref', target, nullable });
export const arrayOf = (items: TypeRef): TypeRef => ({ kind: 'array', items });

export function schemaFile(path: string, format: SchemaFormat, packageName = 'v1alpha1'): Draft<SchemaFile> {
  return {
    kind: 'file',
    path,
    format,
    packageName,
    info: { title: packageName, version: '1.0.0', basePath: format.startsWith('proto') ? '' : '/api/v1' },
    services: [],
    types: [],
    dependencies: [],
    warnings: [],
  };
}

export interface FieldSpec {
  name: string;
  type: TypeRef;
  presence?: Field['presence'];
  jsonName?: string;
  doc?: string;
  number?: number;
  oneof?: string;
}

export function message(
  file: Draft<SchemaFile>,
  name: string,
  fields: FieldSpec[] = [],
  extra: Partial<MessageType> = {},
): Draft<MessageType> {
  const proto = file.format.startsWith('proto');
  const m: Draft<MessageType> = {
    kind: 'message',
    parent: file,
    name,
    localName: name,
    fullName: proto ? `${file.packageName}.${name}` : `#/components/schemas/${name}`,
    fields: [],
    oneofs: [],
    additionalProperties: !proto,
    extends: [],
    deprecated: false,
    source: { file: file.path, line: 1 },
    ...extra,
  } as Draft<MessageType>;
  setFields(m, fields);
  file.types.push(m);
  return m;
}

/** (Re)sets a message's fields: lets tests build recursive types. */
export function setFields(m: Draft<MessageType>, fields: FieldSpec[]): void {
  const proto = m.parent.format.startsWith('proto');
  m.fields = fields.map((spec, i) => {
    const jsonName = spec.jsonName ?? (proto ? spec.name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) : spec.name);
    return {
      kind: 'field',
      parent: m,
      name: spec.name,
      jsonName,
      localName: jsonName,
      number: proto ? (spec.number ?? i + 1) : undefined,
      type: spec.type,
      presence: spec.presence ?? (proto ? 'implicit' : 'optional'),
      oneof: spec.oneof,
      readOnly: false,
      writeOnly: false,
      deprecated: false,
      doc: spec.doc,
      source: { file: m.parent.path, line: 1 },
    };
  });
}

export function enumType(file: Draft<SchemaFile>, name: string, values: (string | [string, number | string])[], doc?: string): EnumType {
  const proto = file.format.startsWith('proto');
  const e: EnumType = {
    kind: 'enum',
    parent: file,
    name,
    localName: name,
    fullName: proto ? `${file.packageName}.${name}` : `#/components/schemas/${name}`,
    valueType: proto || values.some((v) => Array.isArray(v) && typeof v[1] === 'number') ? 'integer' : 'string',
    values: values.map((v, i) => {
      const [n, value] = Array.isArray(v) ? v : [v, proto ? i : v];
      return { name: n, localName: n.replace(/^[a-z]/, (c) => c.toUpperCase()).replace(/[^A-Za-z0-9_]/g, '_'), value, alias: false };
    }),
    doc,
    source: { file: file.path, line: 1 },
  };
  file.types.push(e);
  return e;
}

export function rpcService(file: Draft<SchemaFile>, name: string, methods: [string, MessageType, MessageType, string?][]): Service {
  const service: Draft<Service> = {
    kind: 'service',
    parent: file,
    name,
    localName: name,
    fullName: `${file.packageName}.${name}`,
    protocol: 'rpc',
    operations: [],
    source: { file: file.path, line: 1 },
  };
  service.operations = methods.map(
    ([m, input, output, doc]): RpcOperation => ({
      kind: 'rpc',
      parent: service,
      name: m,
      localName: m[0]!.toLowerCase() + m.slice(1),
      input,
      output,
      clientStreaming: false,
      serverStreaming: false,
      deprecated: false,
      doc,
      source: { file: file.path, line: 1 },
    }),
  );
  file.services.push(service);
  return service;
}

export function httpService(file: Draft<SchemaFile>, name: string): Draft<Service> {
  const service: Draft<Service> = {
    kind: 'service',
    parent: file,
    name,
    localName: name[0]!.toUpperCase() + name.slice(1),
    fullName: name,
    protocol: 'http',
    operations: [],
    source: { file: file.path, line: 1 },
  };
  file.services.push(service);
  return service;
}

export function param(name: string, where: Parameter['in'], type: TypeRef, required = where === 'path'): Parameter {
  return {
    kind: 'parameter',
    name,
    localName: name.replace(/[-_]([a-z])/gi, (_, c: string) => c.toUpperCase()),
    in: where,
    required,
    type,
    deprecated: false,
    source: { file: 'x', line: 1 },
  };
}

export function httpOperation(
  service: Draft<Service>,
  spec: Partial<HttpOperation> & Pick<HttpOperation, 'name' | 'method' | 'path'>,
): HttpOperation {
  const op: HttpOperation = {
    kind: 'http',
    parent: service,
    localName: spec.name,
    parameters: [],
    responses: [],
    tags: [service.name],
    deprecated: false,
    source: { file: service.parent.path, pointer: `/paths/${spec.path.replace(/\//g, '~1')}/${spec.method}` },
    ...spec,
  };
  service.operations.push(op);
  return op;
}

/** Runs emitters over files with the built-in templates and returns path → content. */
export function run(
  files: SchemaFile[],
  emitters: Emitter[],
  runtimeImport = '../runtime/entries',
): Map<string, string> & { result: EmitResult } {
  const result = emit(files, emitters, { runtimeImport, templates: loadTemplates() });
  const out = new Map(result.files.map((f) => [f.path, f.content])) as Map<string, string> & { result: EmitResult };
  out.result = result;
  return out;
}
