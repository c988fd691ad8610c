/**
 * @module
 * The simulated host's service table: its shape, and strict parsing of `SIMULATED_HOST_FILE`
 * (YAML or JSON) into it.
 *
 * ```yaml
 * biosSerial: SIM-0001
 * services:
 *   - { name: db, displayName: Database, startType: AUTOMATIC, status: RUNNING }
 *   - { name: web, displayName: Web Server, startType: AUTOMATIC, status: RUNNING, dependsOn: [db] }
 * ```
 *
 * A table that a real service manager could not be in is refused with an error naming the file and
 * the field: unknown keys (typos), duplicate or invalid names, unknown dependencies, dependency
 * cycles, a running service whose dependency is stopped, a status other than RUNNING or STOPPED
 * (pending states only exist while the simulated host is working on them).
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { ServiceStatus, StartType } from '../../../generated/system/v1alpha1/system.types.js';
import { isHostError } from '../host-adapter.js';
import type { ServiceNameRules } from '../service-name.js';

/** One service of the table. */
export interface SimulatedServiceSpec {
  readonly name: string;
  readonly displayName: string;
  readonly startType: StartType;
  /** RUNNING or STOPPED. */
  readonly status: ServiceStatus;
  /** Services this one needs: they are started first, and cannot stop while this one runs (unless `force`). */
  readonly dependsOn: readonly string[];
}

/** The simulated machine: its BIOS serial and its services, as a host file describes them. */
export interface SimulatedHostTable {
  readonly biosSerial: string;
  readonly services: readonly SimulatedServiceSpec[];
}

/** A host file that cannot be used; the message names the file and the offending field. */
export class HostTableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostTableError';
  }
}

const SERVICE_KEYS = new Set(['name', 'displayName', 'startType', 'status', 'dependsOn']);
const SETTLED = new Set<ServiceStatus>([ServiceStatus.RUNNING, ServiceStatus.STOPPED]);

/**
 * Reads and validates a YAML (`.yaml`, `.yml`) or JSON (`.json`) host file.
 *
 * @example
 * ```ts
 * const table = await loadHostTableFile(process.env.SIMULATED_HOST_FILE!, createSimulatedNameRules());
 * ```
 * @throws HostTableError when the file is missing, unparsable or describes an impossible table.
 */
export async function loadHostTableFile(path: string, rules: ServiceNameRules): Promise<SimulatedHostTable> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new HostTableError(`cannot read simulated host file ${path}: ${(error as Error).message}`);
  }
  return parseHostTableText(text, path, rules);
}

/** Parses host file text; `.json` files as JSON, anything else as YAML (which also reads JSON). */
export function parseHostTableText(text: string, source: string, rules: ServiceNameRules): SimulatedHostTable {
  let value: unknown;
  try {
    value = source.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { uniqueKeys: true });
  } catch (error) {
    throw new HostTableError(
      `${source}: not valid ${source.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  return parseHostTable(value, source, rules);
}

/** Validates an already parsed table. */
export function parseHostTable(value: unknown, source: string, rules: ServiceNameRules): SimulatedHostTable {
  const fail = (where: string, message: string): never => {
    throw new HostTableError(`${source}: ${where}: ${message}`);
  };
  if (!isRecord(value)) fail('top level', `expected a mapping with biosSerial and services, got ${typeName(value)}`);
  const root = value as Record<string, unknown>;
  for (const key of Object.keys(root)) {
    if (key !== 'biosSerial' && key !== 'services') fail(key, 'unknown key (expected biosSerial, services)');
  }
  const biosSerial = root.biosSerial ?? 'SIM-0001';
  if (typeof biosSerial !== 'string' && typeof biosSerial !== 'number')
    fail('biosSerial', `expected a string, got ${typeName(biosSerial)}`);
  if (!Array.isArray(root.services)) fail('services', `expected a list, got ${typeName(root.services)}`);

  const byKey = new Map<string, SimulatedServiceSpec>();
  const services = (root.services as unknown[]).map((raw, i): SimulatedServiceSpec => {
    const at = `services[${i}]`;
    if (!isRecord(raw)) return fail(at, `expected a mapping, got ${typeName(raw)}`);
    for (const key of Object.keys(raw)) {
      if (!SERVICE_KEYS.has(key)) fail(`${at}.${key}`, `unknown key (expected ${[...SERVICE_KEYS].join(', ')})`);
    }
    const name = normalizeName(raw.name, `${at}.name`, rules, fail);
    const displayName = raw.displayName ?? name;
    if (typeof displayName !== 'string') fail(`${at}.displayName`, `expected a string, got ${typeName(displayName)}`);
    const startType = enumValue(StartType, raw.startType ?? 'MANUAL', `${at}.startType`, fail);
    const status = enumValue(ServiceStatus, raw.status ?? 'STOPPED', `${at}.status`, fail);
    if (!SETTLED.has(status)) fail(`${at}.status`, 'only RUNNING or STOPPED can be configured (pending states settle by themselves)');
    const dependsOnRaw = raw.dependsOn ?? [];
    if (!Array.isArray(dependsOnRaw)) fail(`${at}.dependsOn`, `expected a list of service names, got ${typeName(dependsOnRaw)}`);
    const dependsOn = (dependsOnRaw as unknown[]).map((dep, j) => normalizeName(dep, `${at}.dependsOn[${j}]`, rules, fail));
    const spec: SimulatedServiceSpec = { name, displayName: displayName as string, startType, status, dependsOn };
    const key = rules.normalize(name).key;
    if (byKey.has(key)) fail(`${at}.name`, `duplicate service ${JSON.stringify(name)}`);
    byKey.set(key, spec);
    return spec;
  });

  for (const [i, spec] of services.entries()) {
    for (const dep of spec.dependsOn) {
      const target = byKey.get(rules.normalize(dep).key);
      if (!target) fail(`services[${i}].dependsOn`, `unknown service ${JSON.stringify(dep)}`);
      if (spec.status === ServiceStatus.RUNNING && target!.status !== ServiceStatus.RUNNING) {
        fail(`services[${i}]`, `${spec.name} is RUNNING but its dependency ${target!.name} is not`);
      }
    }
  }
  const cycle = findCycle(services, (name) => byKey.get(rules.normalize(name).key)!);
  if (cycle) fail('services', `dependency cycle: ${cycle.join(' -> ')}`);
  return { biosSerial: String(biosSerial), services };
}

function normalizeName(raw: unknown, where: string, rules: ServiceNameRules, fail: (where: string, message: string) => never): string {
  if (typeof raw !== 'string') return fail(where, `expected a service name, got ${typeName(raw)}`);
  try {
    return rules.normalize(raw).name;
  } catch (error) {
    if (isHostError(error)) return fail(where, error.message);
    throw error;
  }
}

function enumValue<E extends Record<string, number>>(
  values: E,
  raw: unknown,
  where: string,
  fail: (where: string, message: string) => never,
): E[keyof E] {
  if (typeof raw === 'string' && Object.hasOwn(values, raw)) return values[raw as keyof E]!;
  if (typeof raw === 'number' && Object.values(values).includes(raw)) return raw as E[keyof E];
  return fail(where, `expected one of ${Object.keys(values).join(', ')}, got ${JSON.stringify(raw)}`);
}

/** Depth-first search for a cycle; returns it as a path (`a -> b -> a`) or undefined. */
function findCycle(services: readonly SimulatedServiceSpec[], lookup: (name: string) => SimulatedServiceSpec): string[] | undefined {
  const state = new Map<SimulatedServiceSpec, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (spec: SimulatedServiceSpec): string[] | undefined => {
    if (state.get(spec) === 'done') return undefined;
    if (state.get(spec) === 'visiting') return [...path.slice(path.indexOf(spec.name)), spec.name];
    state.set(spec, 'visiting');
    path.push(spec.name);
    for (const dep of spec.dependsOn) {
      const found = visit(lookup(dep));
      if (found) return found;
    }
    path.pop();
    state.set(spec, 'done');
    return undefined;
  };
  for (const spec of services) {
    const found = visit(spec);
    if (found) return found;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : `${typeof value} ${JSON.stringify(value)}`;
}
