import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceStatus, StartType } from '../../../generated/system/v1alpha1/system.types.js';
import { createSimulatedNameRules } from '../service-name.js';
import { HostTableError, loadHostTableFile, parseHostTableText } from './host-table.js';

const rules = createSimulatedNameRules();

function parseError(text: string, source = 'hosts.yaml'): string {
  try {
    parseHostTableText(text, source, rules);
  } catch (error) {
    expect(error).toBeInstanceOf(HostTableError);
    return (error as Error).message;
  }
  throw new Error('the table was accepted');
}

describe('host table files', () => {
  it('fills defaults: displayName = name, startType MANUAL, status STOPPED, serial SIM-0001', () => {
    expect(parseHostTableText('services: [{ name: x }]', 'h.yaml', rules)).toEqual({
      biosSerial: 'SIM-0001',
      services: [{ name: 'x', displayName: 'x', startType: StartType.MANUAL, status: ServiceStatus.STOPPED, dependsOn: [] }],
    });
  });

  it.each([
    ['services: [', 'hosts.yaml: not valid YAML: '],
    ['- a\n- b', 'hosts.yaml: top level: expected a mapping with biosSerial and services, got a list'],
    ['biosSerial: X', 'hosts.yaml: services: expected a list, got nothing'],
    ['services: [{ name: x }]\nextra: 1', 'hosts.yaml: extra: unknown key (expected biosSerial, services)'],
    [
      'services: [{ name: x, stauts: RUNNING }]',
      'hosts.yaml: services[0].stauts: unknown key (expected name, displayName, startType, status, dependsOn)',
    ],
    ['services: [{ name: "a;b" }]', 'hosts.yaml: services[0].name: invalid service name "a;b": ";" at position 1 is not allowed'],
    ['services: [{ displayName: X }]', 'hosts.yaml: services[0].name: expected a service name, got nothing'],
    ['services: [{ name: x }, { name: x }]', 'hosts.yaml: services[1].name: duplicate service "x"'],
    [
      'services: [{ name: x, startType: AUTO }]',
      'hosts.yaml: services[0].startType: expected one of BOOT, SYSTEM, AUTOMATIC, MANUAL, DISABLED, got "AUTO"',
    ],
    [
      'services: [{ name: x, status: PAUSED }]',
      'hosts.yaml: services[0].status: only RUNNING or STOPPED can be configured (pending states settle by themselves)',
    ],
    [
      'services: [{ name: x, status: 9 }]',
      'hosts.yaml: services[0].status: expected one of UNKNOWN, STOPPED, START_PENDING, STOP_PENDING, RUNNING, CONTINUE_PENDING, ' +
        'PAUSE_PENDING, PAUSED, got 9',
    ],
    ['services: [{ name: x, dependsOn: y }]', 'hosts.yaml: services[0].dependsOn: expected a list of service names, got string "y"'],
    ['services: [{ name: x, dependsOn: [y] }]', 'hosts.yaml: services[0].dependsOn: unknown service "y"'],
    ['services: [{ name: a, dependsOn: [b] }, { name: b, dependsOn: [a] }]', 'hosts.yaml: services: dependency cycle: a -> b -> a'],
    [
      'services: [{ name: a, status: RUNNING, dependsOn: [b] }, { name: b }]',
      'hosts.yaml: services[0]: a is RUNNING but its dependency b is not',
    ],
    ['services: [{ name: x }]\nservices: []', 'hosts.yaml: not valid YAML: Map keys must be unique'],
  ])('refuses %j', (text, message) => {
    expect(parseError(text)).toContain(message);
  });

  it('reads .json files as strict JSON', () => {
    expect(parseError('{ services: [] }', 'hosts.json')).toMatch(/^hosts\.json: not valid JSON: /);
  });

  it('names a missing file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loom-table-'));
    try {
      await expect(loadHostTableFile(join(dir, 'missing.yaml'), rules)).rejects.toThrow(
        `cannot read simulated host file ${join(dir, 'missing.yaml')}: ENOENT`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
