/**
 * @module
 * The repository's own `schemas/system/v1alpha1/system.proto` (csi-proxy System v1alpha1)
 * loads into the model the System service is generated from.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSchemas } from '../../generator/loaders/index.js';
import { plain } from '../../generator/loaders/testing.js';
import type { EnumType, MessageType, SchemaFile } from '../../generator/model/model.js';

const SCHEMAS = fileURLToPath(new URL('../../schemas', import.meta.url));
let file: SchemaFile;

beforeAll(async () => {
  const files = await loadSchemas([`${SCHEMAS}/system`], { root: SCHEMAS });
  expect(files.map((f) => f.path)).toEqual(['system/v1alpha1/system.proto']);
  file = files[0]!;
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
});
