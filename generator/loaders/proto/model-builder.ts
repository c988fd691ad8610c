/**
 * @module
 * protobufjs reflection → model: one {@link SchemaFile} per `.proto` file, with messages,
 * enums and services. Two passes (shells, then contents) so that a field can reference
 * a type declared later in the file or in another file.
 */
import { posix } from 'node:path';
import protobuf from 'protobufjs';
import type {
  Diagnostic,
  EnumType,
  EnumValue,
  Field,
  JsonValue,
  MessageType,
  NamedType,
  OneofGroup,
  RpcOperation,
  ScalarName,
  ScalarType,
  SchemaFile,
  Service,
  SourceLocation,
  TypeRef,
  WellKnownType,
} from '../../model/model.js';
import { protoJsonName, safeIdentifier, safePropertyName, safeVariableName, UniqueNames } from '../../model/names.js';
import type { Mutable } from '../../model/type-utils.js';
import { warning } from '../diagnostics.js';
import type { ProtoScan } from './scan.js';

type ReflectionObject = protobuf.ReflectionObject;

/** One `.proto` file being loaded. */
export interface ProtoSource {
  /** Absolute path, or `bundled:google/protobuf/x.proto` for protobufjs's built-in JSON definitions. */
  readonly key: string;
  /** `SchemaFile.path`. */
  readonly path: string;
  readonly text?: string;
  readonly scan?: ProtoScan;
  imports: string[];
  syntax: 'proto2' | 'proto3';
  packageName: string;
  readonly warnings: Diagnostic[];
}

const SCALARS: ReadonlySet<string> = new Set([
  'double',
  'float',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
  'bool',
  'string',
  'bytes',
]);

const WELL_KNOWN: ReadonlySet<string> = new Set<WellKnownType>([
  'Any',
  'Duration',
  'Empty',
  'FieldMask',
  'Struct',
  'Value',
  'ListValue',
  'NullValue',
  'Timestamp',
  'DoubleValue',
  'FloatValue',
  'Int64Value',
  'UInt64Value',
  'Int32Value',
  'UInt32Value',
  'BoolValue',
  'StringValue',
  'BytesValue',
]);

/** A field's proto3 JSON name: its `json_name` option, else its name in lowerCamelCase. */
export function fieldJsonName(f: protobuf.Field): string {
  return typeof f.options?.['json_name'] === 'string' ? (f.options['json_name'] as string) : protoJsonName(f.name);
}

/**
 * Names an RPC's `localName` must not take, because the generated code or the runtime gives
 * the same name to something else beside the RPC methods: the members every object inherits,
 * the routes class's constructor parameters (`api`, `options`), `then` (an object with a `then`
 * method is awaited as a promise), and the members of the gRPC client (its `close()`, and the
 * grpc-js client class it builds, which gets a method per RPC).
 */
const RESERVED_RPC_NAMES: readonly string[] = [
  'constructor',
  'toString',
  'toLocaleString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  '__proto__',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'api',
  'options',
  'then',
  'close',
  'getChannel',
  'waitForReady',
  'checkOptionalUnaryResponseArguments',
  'checkMetadataAndOptions',
  'makeUnaryRequest',
  'makeClientStreamRequest',
  'makeServerStreamRequest',
  'makeBidiStreamRequest',
];
const RESERVED_RPC_NAME_SET: ReadonlySet<string> = new Set(RESERVED_RPC_NAMES);

/**
 * An RPC's `localName`: its name with a lower-case first letter, made a safe identifier, and
 * given a `$` suffix when it is reserved (reserved words get one too: `delete` → `delete$`).
 * @example rpcLocalName('GetService') // 'getService'
 * @example rpcLocalName('Options') // 'options$'
 */
export function rpcLocalName(name: string): string {
  const id = safeVariableName(name.charAt(0).toLowerCase() + name.slice(1));
  return RESERVED_RPC_NAME_SET.has(id) ? `${id}$` : id;
}

/**
 * A reflection object's name relative to its file's package (the key `scanProto` uses).
 * @example relativeName(root.lookup('v1alpha1.GetServiceRequest'), sources) // 'GetServiceRequest'
 */
export function relativeName(obj: ReflectionObject, sources: ReadonlyMap<string, ProtoSource>): string {
  const full = obj.fullName.replace(/^\./, '');
  const pkg = obj.filename ? sources.get(obj.filename)?.packageName : undefined;
  return pkg && full.startsWith(`${pkg}.`) ? full.slice(pkg.length + 1) : full;
}

function comment(text: string | null | undefined): string | undefined {
  const t = text?.trim();
  return t ? t : undefined;
}

/**
 * Turns the resolved protobufjs tree into model nodes, two passes so that references can point anywhere.
 * @example
 * pbRoot.resolveAll();
 * const files = new ModelBuilder(pbRoot, sources, importsOf).build(['/abs/a.proto']);
 */
export class ModelBuilder {
  readonly #sources: ReadonlyMap<string, ProtoSource>;
  readonly #importsOf: ReadonlyMap<string, readonly string[]>;
  readonly #files = new Map<
    string,
    { file: Mutable<SchemaFile>; types: NamedType[]; services: Service[]; deps: SchemaFile[]; source: ProtoSource; names: UniqueNames }
  >();
  readonly #named = new Map<ReflectionObject, NamedType>();
  /** Reflection objects per file key, in declaration order (parents before nested). */
  readonly #declared = new Map<string, ReflectionObject[]>();

  readonly #root: protobuf.Root;

  constructor(root: protobuf.Root, sources: ReadonlyMap<string, ProtoSource>, importsOf: ReadonlyMap<string, readonly string[]>) {
    this.#root = root;
    this.#sources = sources;
    this.#importsOf = importsOf;
  }

  build(inputs: readonly string[]): SchemaFile[] {
    for (const source of this.#sources.values()) this.#createFile(source);
    for (const [key, deps] of this.#importsOf) {
      const entry = this.#files.get(key)!;
      for (const dep of deps) {
        const d = this.#files.get(dep)!.file;
        if (!entry.deps.includes(d)) entry.deps.push(d);
      }
    }
    this.#collect(this.#root);
    // Pass 1: shells for every named type, so fields can reference types declared later or elsewhere.
    for (const [key, objects] of this.#declared) for (const obj of objects) this.#shell(key, obj);
    // Pass 2: fields, values and services.
    for (const [key, objects] of this.#declared) {
      for (const obj of objects) {
        if (obj instanceof protobuf.Type) this.#fillMessage(key, obj);
        else if (obj instanceof protobuf.Service) this.#service(key, obj);
      }
    }
    return inputs.map((key) => this.#files.get(key)!.file as SchemaFile);
  }

  #createFile(source: ProtoSource): void {
    const types: NamedType[] = [];
    const services: Service[] = [];
    const deps: SchemaFile[] = [];
    const file: Mutable<SchemaFile> = {
      kind: 'file',
      path: source.path,
      format: source.syntax,
      packageName: source.packageName,
      info: { title: source.packageName || posix.basename(source.path, '.proto'), version: '', basePath: '' },
      services,
      types,
      dependencies: deps,
      warnings: source.warnings,
    };
    this.#files.set(source.key, { file, types, services, deps, source, names: new UniqueNames() });
    this.#declared.set(source.key, []);
  }

  #collect(ns: ReflectionObject): void {
    if (ns instanceof protobuf.Type || ns instanceof protobuf.Enum || ns instanceof protobuf.Service) {
      const list = ns.filename ? this.#declared.get(ns.filename) : undefined;
      if (list) list.push(ns);
    }
    if (ns instanceof protobuf.Namespace) for (const child of ns.nestedArray) this.#collect(child);
  }

  #loc(key: string, scanKey: string | undefined): SourceLocation {
    const source = this.#sources.get(key)!;
    const line = scanKey === undefined ? undefined : source.scan?.lines.get(scanKey);
    return line === undefined ? { file: source.path } : { file: source.path, line };
  }

  #shell(key: string, obj: ReflectionObject): void {
    if (obj instanceof protobuf.Service) return;
    const entry = this.#files.get(key)!;
    const rel = relativeName(obj, this.#sources);
    const outerObj = obj.parent instanceof protobuf.Type ? obj.parent : undefined;
    const outer = outerObj ? (this.#named.get(outerObj) as MessageType | undefined) : undefined;
    const localName = entry.names.take(safeIdentifier(rel.replace(/\./g, '_')));
    const fullName = obj.fullName.replace(/^\./, '');
    const source = this.#loc(key, rel);
    if (obj instanceof protobuf.Type) {
      const wellKnown =
        entry.source.packageName === 'google.protobuf' && !outer && WELL_KNOWN.has(obj.name) ? (obj.name as WellKnownType) : undefined;
      const message: Mutable<MessageType> = {
        kind: 'message',
        parent: entry.file,
        ...(outer ? { outer } : {}),
        name: obj.name,
        localName,
        fullName,
        fields: [],
        oneofs: [],
        additionalProperties: false,
        ...(wellKnown ? { wellKnown } : {}),
        ...((obj as protobuf.Type & { group?: boolean }).group ? { group: true } : {}),
        extends: [],
        deprecated: obj.options?.['deprecated'] === true,
        ...(comment(obj.comment) ? { doc: comment(obj.comment) } : {}),
        source,
      };
      if ((obj as protobuf.Type & { group?: boolean }).group) {
        entry.source.warnings.push(
          warning(`group '${rel}' is loaded as a nested message; groups are deprecated, prefer a message field`, source),
        );
      }
      this.#named.set(obj, message);
      entry.types.push(message);
    } else if (obj instanceof protobuf.Enum) {
      const seen = new Set<number>();
      const values: EnumValue[] = [];
      const names = new UniqueNames();
      for (const [name, value] of Object.entries(obj.values)) {
        const doc = comment(obj.comments[name]);
        values.push({ name, localName: names.take(safePropertyName(name)), value, alias: seen.has(value), ...(doc ? { doc } : {}) });
        seen.add(value);
      }
      const en: EnumType = {
        kind: 'enum',
        parent: entry.file,
        ...(outer ? { outer } : {}),
        name: obj.name,
        localName,
        fullName,
        valueType: 'integer',
        values,
        ...(comment(obj.comment) ? { doc: comment(obj.comment) } : {}),
        source,
      };
      this.#named.set(obj, en);
      entry.types.push(en);
    }
  }

  #fillMessage(key: string, obj: protobuf.Type): void {
    const message = this.#named.get(obj) as Mutable<MessageType>;
    const entry = this.#files.get(key)!;
    const rel = relativeName(obj, this.#sources);
    const fields: Field[] = [];
    const byName = new Map<string, Field>();
    const syntheticOneofs = new Set<string>();
    for (const oneof of obj.oneofsArray) {
      const only = oneof.fieldsArray.length === 1 ? oneof.fieldsArray[0] : undefined;
      if (only && only.options?.['proto3_optional'] === true) syntheticOneofs.add(oneof.name);
    }
    const oneofOf = new Map<string, string>();
    for (const oneof of obj.oneofsArray) {
      if (syntheticOneofs.has(oneof.name)) continue;
      for (const name of oneof.oneof) oneofOf.set(name, oneof.name);
    }
    for (const f of obj.fieldsArray) {
      if (f.declaringField || f.extend !== undefined) continue; // extension sister fields
      const jsonName = fieldJsonName(f);
      const oneof = oneofOf.get(f.name);
      const type = this.#fieldType(f);
      const presence = this.#presence(f, entry.source, oneof !== undefined);
      const doc = comment(f.comment);
      const def = f.options?.['default'] as JsonValue | undefined;
      const field: Field = {
        kind: 'field',
        parent: message,
        name: f.name,
        jsonName,
        localName: safePropertyName(jsonName),
        number: f.id,
        type,
        presence,
        ...(oneof !== undefined ? { oneof } : {}),
        readOnly: false,
        writeOnly: false,
        deprecated: f.options?.['deprecated'] === true,
        ...(def !== undefined ? { default: def } : {}),
        ...(doc ? { doc } : {}),
        source: this.#loc(key, `${rel}#${f.name}`),
      };
      fields.push(field);
      byName.set(f.name, field);
    }
    const oneofs: OneofGroup[] = [];
    for (const oneof of obj.oneofsArray) {
      if (syntheticOneofs.has(oneof.name)) continue;
      oneofs.push({
        name: oneof.name,
        localName: safePropertyName(protoJsonName(oneof.name)),
        fields: oneof.oneof.map((n) => byName.get(n)).filter((x): x is Field => x !== undefined),
      });
    }
    message.fields = fields;
    message.oneofs = oneofs;
  }

  #presence(f: protobuf.Field, source: ProtoSource, inOneof: boolean): Field['presence'] {
    if (f.repeated || f.map) return 'implicit';
    if (f.required) return 'required';
    if (inOneof || f.options?.['proto3_optional'] === true) return 'optional';
    if (source.syntax === 'proto2') return 'optional';
    if (source.scan?.edition !== undefined) {
      // Editions: presence is a feature, resolved by protobufjs from file, message and field options.
      const features = (f as unknown as { _features?: { field_presence?: string } })._features;
      if (features?.field_presence === 'IMPLICIT' && !(f.resolvedType instanceof protobuf.Type)) return 'implicit';
      return 'optional';
    }
    // proto3: singular message fields have explicit presence, scalars and enums do not.
    return f.resolvedType instanceof protobuf.Type ? 'optional' : 'implicit';
  }

  #fieldType(f: protobuf.Field): TypeRef {
    if (f.map) {
      const mf = f as unknown as protobuf.MapField;
      return { kind: 'map', key: { kind: 'scalar', scalar: mf.keyType as ScalarName }, value: this.#elementType(f) };
    }
    const element = this.#elementType(f);
    return f.repeated ? { kind: 'array', items: element } : element;
  }

  #elementType(f: protobuf.Field): TypeRef {
    if (f.resolvedType) {
      const target = this.#named.get(f.resolvedType);
      if (target) return { kind: 'ref', target };
    }
    if (SCALARS.has(f.type)) return { kind: 'scalar', scalar: f.type as ScalarName } satisfies ScalarType;
    // Unreachable after resolveAll(); keep the shape honest rather than guessing.
    return { kind: 'unknown' };
  }

  #service(key: string, obj: protobuf.Service): void {
    const entry = this.#files.get(key)!;
    const rel = relativeName(obj, this.#sources);
    const operations: RpcOperation[] = [];
    const doc = comment(obj.comment);
    const service: Service = {
      kind: 'service',
      parent: entry.file,
      name: obj.name,
      localName: safeIdentifier(obj.name),
      fullName: obj.fullName.replace(/^\./, ''),
      protocol: 'rpc',
      ...(doc ? { doc } : {}),
      operations,
      source: this.#loc(key, rel),
    };
    const names = new UniqueNames();
    for (const m of obj.methodsArray) {
      const input = m.resolvedRequestType ? this.#named.get(m.resolvedRequestType) : undefined;
      const output = m.resolvedResponseType ? this.#named.get(m.resolvedResponseType) : undefined;
      if (input?.kind !== 'message' || output?.kind !== 'message') continue; // resolveAll() guarantees both
      const idempotency = m.options?.['idempotency_level'];
      const mdoc = comment(m.comment);
      operations.push({
        kind: 'rpc',
        parent: service,
        name: m.name,
        localName: names.take(rpcLocalName(m.name)),
        input,
        output,
        clientStreaming: m.requestStream === true,
        serverStreaming: m.responseStream === true,
        ...(idempotency === 'NO_SIDE_EFFECTS' || idempotency === 'IDEMPOTENT' ? { idempotency } : {}),
        deprecated: m.options?.['deprecated'] === true,
        ...(mdoc ? { doc: mdoc } : {}),
        source: this.#loc(key, `${rel}#${m.name}`),
      });
    }
    entry.services.push(service);
  }
}
