/**
 * @module
 * csi-proxy's System v1alpha1 API, the reference copy the repository's
 * `schemas/system/v1alpha1/system.proto` started from, loads into the model the System service
 * is generated from; and the repository's schema, whatever it has added since, still declares
 * all of it with the same field numbers (clients built from the reference keep working).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSchemas } from '../../generator/loaders/index.js';
import { plain } from '../../generator/loaders/testing.js';
import type { EnumType, MessageType, SchemaFile } from '../../generator/model/model.js';

const SCHEMAS = fileURLToPath(new URL('../../schemas', import.meta.url));
const REFERENCE = fileURLToPath(new URL('../fixtures/reference/csi-proxy-system-v1alpha1.proto', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'loom-system-proto-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let file: SchemaFile;
let live: SchemaFile;

beforeAll(async () => {
  // The reference at the path the repository's schema has, so that both name their types alike.
  mkdirSync(join(tmp, 'system/v1alpha1'), { recursive: true });
  copyFileSync(REFERENCE, join(tmp, 'system/v1alpha1/system.proto'));
  const files = await loadSchemas([join(tmp, 'system')], { root: tmp });
  expect(files.map((f) => f.path)).toEqual(['system/v1alpha1/system.proto']);
  file = files[0]!;
  [live] = await loadSchemas([`${SCHEMAS}/system`], { root: SCHEMAS });
});

describe('system.proto', () => {
  it('has package v1alpha1, no dependencies and no warnings', () => {
    expect([file.format, file.packageName, file.dependencies, file.warnings]).toEqual(['proto3', 'v1alpha1', [], []]);
  });

  it('declares the System service with four unary rpcs', () => {
    const [service] = file.services;
    expect([file.services.length, service!.fullName, service!.protocol]).toEqual([1, 'v1alpha1.System', 'rpc']);
    expect(
      service!.operations.map(
        (o) => o.kind === 'rpc' && [o.name, o.localName, o.input.name, o.output.name, o.clientStreaming, o.serverStreaming, o.idempotency],
      ),
    ).toEqual([
      ['GetBIOSSerialNumber', 'getBIOSSerialNumber', 'GetBIOSSerialNumberRequest', 'GetBIOSSerialNumberResponse', false, false, undefined],
      ['StartService', 'startService', 'StartServiceRequest', 'StartServiceResponse', false, false, undefined],
      ['StopService', 'stopService', 'StopServiceRequest', 'StopServiceResponse', false, false, undefined],
      ['GetService', 'getService', 'GetServiceRequest', 'GetServiceResponse', false, false, undefined],
    ]);
    expect(service!.operations[1]!.doc).toBe(
      'StartService starts a Windows service\nNOTE: This method affects global node state and should only be used\n' +
        'with consideration to other CSI drivers that run concurrently.',
    );
  });

  it('maps GetServiceResponse with json names and enum references', () => {
    const response = file.types.find((t) => t.name === 'GetServiceResponse') as MessageType;
    expect(response.fields.map((f) => [f.name, f.jsonName, f.number, f.presence, plain(f.type), f.doc])).toEqual([
      ['display_name', 'displayName', 1, 'implicit', { kind: 'scalar', scalar: 'string' }, 'Service display name'],
      [
        'start_type',
        'startType',
        2,
        'implicit',
        { kind: 'ref', target: { ref: 'system/v1alpha1/system.proto#v1alpha1.StartType' } },
        'Service start type.\nUsed to control whether a service will start on boot, and if so on which\nboot phase.',
      ],
      [
        'status',
        'status',
        3,
        'implicit',
        { kind: 'ref', target: { ref: 'system/v1alpha1/system.proto#v1alpha1.ServiceStatus' } },
        'Service status, e.g. stopped, running, paused',
      ],
    ]);
  });

  it('declares both enums with their values', () => {
    const values = (name: string) => (file.types.find((t) => t.name === name) as EnumType).values.map((v) => `${v.name}=${v.value}`);
    expect(values('ServiceStatus')).toEqual([
      'UNKNOWN=0',
      'STOPPED=1',
      'START_PENDING=2',
      'STOP_PENDING=3',
      'RUNNING=4',
      'CONTINUE_PENDING=5',
      'PAUSE_PENDING=6',
      'PAUSED=7',
    ]);
    expect(values('StartType')).toEqual(['BOOT=0', 'SYSTEM=1', 'AUTOMATIC=2', 'MANUAL=3', 'DISABLED=4']);
  });

  it('lists the types in declaration order', () => {
    expect(file.types.map((t) => t.name)).toEqual([
      'GetBIOSSerialNumberRequest',
      'GetBIOSSerialNumberResponse',
      'StartServiceRequest',
      'StartServiceResponse',
      'StopServiceRequest',
      'StopServiceResponse',
      'ServiceStatus',
      'StartType',
      'GetServiceRequest',
      'GetServiceResponse',
    ]);
  });

  it("is all still in the repository's schema: every rpc, message, field number and enum value", () => {
    expect([live.packageName, live.warnings]).toEqual([file.packageName, []]);
    const rpcs = (f: SchemaFile) =>
      new Map(
        f.services.flatMap((s) =>
          s.operations.map((o) => [
            `${s.fullName}.${o.name}`,
            o.kind === 'rpc' && [o.input.name, o.output.name, o.clientStreaming, o.serverStreaming],
          ]),
        ),
      );
    const liveRpcs = rpcs(live);
    for (const [name, shape] of rpcs(file)) expect([name, liveRpcs.get(name)]).toEqual([name, shape]);
    for (const type of file.types) {
      const same = live.types.find((t) => t.name === type.name);
      expect(same?.kind).toBe(type.kind);
      if (type.kind === 'message') {
        const fields = new Map((same as MessageType).fields.map((f) => [f.number, [f.name, plain(f.type)]]));
        for (const f of type.fields)
          expect([type.name, f.number, fields.get(f.number)]).toEqual([type.name, f.number, [f.name, plain(f.type)]]);
      } else if (type.kind === 'enum') {
        const values = new Map((same as EnumType).values.map((v) => [v.value, v.name]));
        for (const v of type.values) expect([type.name, v.value, values.get(v.value)]).toEqual([type.name, v.value, v.name]);
      }
    }
  });
});
