import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceStatus, StartType } from '../../../generated/system/v1alpha1/system.types.js';
import { HostError } from '../host-adapter.js';
import type { SimulatedHostTable } from './host-table.js';
import { createSimulatedHost, SimulatedHost, type SimulatedHostOptions } from './simulated-host.js';

const { RUNNING, STOPPED, START_PENDING, STOP_PENDING } = ServiceStatus;

/** a <- b <- c (c needs b, b needs a), all running; d stands alone. */
const CHAIN: SimulatedHostTable = {
  biosSerial: 'CHAIN-1',
  services: [
    { name: 'a', displayName: 'A', startType: StartType.AUTOMATIC, status: RUNNING, dependsOn: [] },
    { name: 'b', displayName: 'B', startType: StartType.AUTOMATIC, status: RUNNING, dependsOn: ['a'] },
    { name: 'c', displayName: 'C', startType: StartType.MANUAL, status: RUNNING, dependsOn: ['b'] },
    { name: 'd', displayName: 'D', startType: StartType.MANUAL, status: STOPPED, dependsOn: [] },
  ],
};

const STATUS_NAME = Object.fromEntries(Object.entries(ServiceStatus).map(([k, v]) => [v, k]));

function host(options: SimulatedHostOptions = {}): { host: SimulatedHost; events: string[] } {
  const events: string[] = [];
  const h = new SimulatedHost({
    startDelayMs: 5,
    stopDelayMs: 5,
    onStatusChange: (name, status) => events.push(`${name}:${STATUS_NAME[status]}`),
    ...options,
  });
  return { host: h, events };
}

async function hostError(promise: Promise<unknown>): Promise<HostError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HostError);
  return error as HostError;
}

describe('SimulatedHost with the default table', () => {
  it('reports the documented services and BIOS serial', async () => {
    const { host: h } = host();
    expect(await h.getBiosSerial()).toBe('SIM-0001');
    expect(await h.getService('db')).toEqual({ displayName: 'Database', startType: StartType.AUTOMATIC, status: RUNNING });
    expect(await h.getService('web')).toEqual({ displayName: 'Web Server', startType: StartType.AUTOMATIC, status: RUNNING });
    expect(await h.getService('worker')).toEqual({ displayName: 'Background Worker', startType: StartType.MANUAL, status: STOPPED });
    expect(await h.getService('legacy')).toEqual({ displayName: 'Legacy Agent', startType: StartType.DISABLED, status: STOPPED });
    await h.close();
  });

  it('answers not_found for an unknown service, and names are case-sensitive', async () => {
    const { host: h } = host();
    expect((await hostError(h.getService('nope'))).message).toBe('service "nope" does not exist');
    expect((await hostError(h.getService('DB'))).kind).toBe('not_found');
    expect((await hostError(h.startService('nope'))).kind).toBe('not_found');
    expect((await hostError(h.stopService('nope', { force: true }))).kind).toBe('not_found');
  });

  it('is case-insensitive when configured so', async () => {
    const { host: h } = host({ caseSensitive: false });
    expect((await h.getService('DB')).displayName).toBe('Database');
  });

  it('passes through START_PENDING and settles at RUNNING', async () => {
    const { host: h, events } = host();
    const started = h.startService('cache');
    expect((await h.getService('cache')).status).toBe(START_PENDING);
    await started;
    expect((await h.getService('cache')).status).toBe(RUNNING);
    expect(events).toEqual(['cache:START_PENDING', 'cache:RUNNING']);
  });

  it('refuses to start a disabled service, and a service that needs one', async () => {
    const { host: h } = host({
      table: {
        biosSerial: 'X',
        services: [
          { name: 'off', displayName: 'Off', startType: StartType.DISABLED, status: STOPPED, dependsOn: [] },
          { name: 'needs-off', displayName: 'N', startType: StartType.MANUAL, status: STOPPED, dependsOn: ['off'] },
        ],
      },
    });
    const direct = await hostError(h.startService('off'));
    expect(direct.kind).toBe('precondition_failed');
    expect(direct.message).toBe('service off is disabled and cannot be started');
    expect((await hostError(h.startService('needs-off'))).message).toBe(
      'service off is disabled and cannot be started (needed by needs-off)',
    );
    expect((await h.getService('needs-off')).status).toBe(STOPPED);
  });
});

describe('SimulatedHost dependencies and force', () => {
  it('refuses to stop a service whose dependents run, without force, and changes nothing', async () => {
    const { host: h, events } = host({ table: CHAIN });
    const error = await hostError(h.stopService('a', { force: false }));
    expect(error.kind).toBe('dependents_running');
    expect(error.message).toBe('cannot stop a: dependent services are running: b (use force to stop them too)');
    expect(events).toEqual([]);
    expect((await h.getService('a')).status).toBe(RUNNING);
  });

  it('with force stops the dependents first, deepest first', async () => {
    const { host: h, events } = host({ table: CHAIN });
    await h.stopService('a', { force: true });
    expect(events).toEqual(['c:STOP_PENDING', 'c:STOPPED', 'b:STOP_PENDING', 'b:STOPPED', 'a:STOP_PENDING', 'a:STOPPED']);
    expect(h.snapshot().services.map((s) => s.status)).toEqual([STOPPED, STOPPED, STOPPED, STOPPED]);
  });

  it('stops a service whose dependents are already stopped, without force', async () => {
    const { host: h, events } = host({ table: CHAIN });
    await h.stopService('c', { force: false });
    await h.stopService('b', { force: false });
    expect(events).toEqual(['c:STOP_PENDING', 'c:STOPPED', 'b:STOP_PENDING', 'b:STOPPED']);
    expect((await h.getService('a')).status).toBe(RUNNING);
  });

  it('starting a service starts what it depends on, first', async () => {
    const { host: h, events } = host({ table: CHAIN });
    await h.stopService('a', { force: true });
    events.length = 0;
    await h.startService('c');
    expect(events).toEqual(['a:START_PENDING', 'a:RUNNING', 'b:START_PENDING', 'b:RUNNING', 'c:START_PENDING', 'c:RUNNING']);
  });

  it('is idempotent: starting a running and stopping a stopped service succeed without transitions', async () => {
    const { host: h, events } = host({ table: CHAIN });
    await h.startService('a');
    await h.stopService('d', { force: false });
    await h.stopService('d', { force: true });
    expect(events).toEqual([]);
  });

  it('waits for a pending transition, then decides again', async () => {
    const { host: h, events } = host({ table: CHAIN, stopDelayMs: 20 });
    const stopping = h.stopService('c', { force: false });
    // c is STOP_PENDING: a start waits for STOPPED, then starts it again.
    await Promise.all([stopping, h.startService('c')]);
    expect(events).toEqual(['c:STOP_PENDING', 'c:STOPPED', 'c:START_PENDING', 'c:RUNNING']);
  });

  it('a stop of a dependency racing a start of its dependent never leaves the dependent running alone', async () => {
    const { host: h } = host({ table: CHAIN });
    await h.stopService('a', { force: true });
    await Promise.allSettled([
      h.startService('c'),
      h.stopService('a', { force: true }),
      h.startService('b'),
      h.stopService('b', { force: true }),
    ]);
    const byName = new Map(h.snapshot().services.map((s) => [s.name, s.status]));
    for (const [dependent, dependency] of [
      ['c', 'b'],
      ['b', 'a'],
    ] as const) {
      if (byName.get(dependent) === RUNNING) expect(byName.get(dependency)).toBe(RUNNING);
    }
    for (const status of byName.values()) expect([RUNNING, STOPPED]).toContain(status);
  });

  it('stops waiting when the signal aborts, while the transition completes', async () => {
    const { host: h } = host({ startDelayMs: 30 });
    const controller = new AbortController();
    const started = h.startService('cache', { signal: controller.signal });
    controller.abort();
    expect((await hostError(started)).kind).toBe('canceled');
    expect((await h.getService('cache')).status).toBe(START_PENDING);
    await h.close();
    expect(h.snapshot().services.find((s) => s.name === 'cache')!.status).toBe(RUNNING);
  });

  it('close() settles transitions in flight at once, including the ones they were holding up', async () => {
    const { host: h, events } = host({ table: CHAIN, stopDelayMs: 60_000 });
    const stopping = h.stopService('a', { force: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['c:STOP_PENDING']);
    await h.close();
    await stopping;
    expect(events).toEqual(['c:STOP_PENDING', 'c:STOPPED', 'b:STOP_PENDING', 'b:STOPPED', 'a:STOP_PENDING', 'a:STOPPED']);
  });

  it('answers unavailable once closed', async () => {
    const { host: h } = host();
    await h.close();
    expect((await hostError(h.getService('db'))).kind).toBe('unavailable');
  });
});

describe('SimulatedHost persistence and host files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loom-sim-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loads the YAML table of the issue', async () => {
    const file = join(dir, 'host.yaml');
    await writeFile(
      file,
      [
        'biosSerial: SIM-0001',
        'services:',
        '  - { name: db, displayName: Database, startType: AUTOMATIC, status: RUNNING }',
        '  - { name: web, displayName: Web Server, startType: AUTOMATIC, status: RUNNING, dependsOn: [db] }',
        '',
      ].join('\n'),
    );
    const h = await createSimulatedHost({ tableFile: file, startDelayMs: 1, stopDelayMs: 1 });
    expect(h.snapshot()).toEqual({
      biosSerial: 'SIM-0001',
      services: [
        { name: 'db', displayName: 'Database', startType: StartType.AUTOMATIC, status: RUNNING, dependsOn: [] },
        { name: 'web', displayName: 'Web Server', startType: StartType.AUTOMATIC, status: RUNNING, dependsOn: ['db'] },
      ],
    });
    expect((await hostError(h.stopService('db', { force: false }))).kind).toBe('dependents_running');
    await h.close();
  });

  it('loads a JSON table with enum numbers', async () => {
    const file = join(dir, 'host.json');
    await writeFile(file, JSON.stringify({ biosSerial: 'J-1', services: [{ name: 'x', startType: 4, status: 1 }] }));
    const h = await createSimulatedHost({ tableFile: file });
    expect(await h.getService('x')).toEqual({ displayName: 'x', startType: StartType.DISABLED, status: STOPPED });
    expect(await h.getBiosSerial()).toBe('J-1');
  });

  it('saves settled statuses and restores them in a new host', async () => {
    const stateFile = join(dir, 'state', 'sim.json');
    const first = await createSimulatedHost({ stateFile, startDelayMs: 1, stopDelayMs: 1 });
    await first.stopService('db', { force: true });
    await first.startService('cache');
    await first.close();
    const saved = JSON.parse(await readFile(stateFile, 'utf8'));
    expect(saved.services.map((s: { name: string; status: string }) => `${s.name}=${s.status}`)).toEqual([
      'db=STOPPED',
      'web=STOPPED',
      'worker=STOPPED',
      'cache=RUNNING',
      'legacy=STOPPED',
    ]);
    const second = await createSimulatedHost({ stateFile });
    expect((await second.getService('db')).status).toBe(STOPPED);
    expect((await second.getService('web')).status).toBe(STOPPED);
    expect((await second.getService('cache')).status).toBe(RUNNING);
  });

  it('refuses saved statuses that contradict a changed host table, naming the way out', async () => {
    const table = join(dir, 'host.yaml');
    const stateFile = join(dir, 'state.json');
    // Saved while web did not depend on db yet.
    await writeFile(
      stateFile,
      JSON.stringify({
        services: [
          { name: 'db', status: 'STOPPED' },
          { name: 'web', status: 'RUNNING' },
        ],
      }),
    );
    await writeFile(table, 'services: [{ name: db, status: STOPPED }, { name: web, dependsOn: [db] }]');
    await expect(createSimulatedHost({ tableFile: table, stateFile })).rejects.toThrow(
      `simulated host table with the statuses saved in ${stateFile} (delete it to start from the statuses of the host table): ` +
        `services[1]: web is RUNNING but its dependency db is not`,
    );
  });

  it('refuses a corrupt state file with a clear error', async () => {
    const stateFile = join(dir, 'sim.json');
    await writeFile(stateFile, '{ not json');
    await expect(createSimulatedHost({ stateFile })).rejects.toThrow(
      new RegExp(
        `^${escapeRegExp(stateFile)}: not valid JSON: .* ` +
          `\\(delete ${escapeRegExp(stateFile)} to start from the statuses of the host table\\)$`,
      ),
    );
  });

  it('says how to get going again for every state file it cannot use', async () => {
    const cases: Array<[string, string | undefined, string]> = [
      ['a directory in the way', undefined, 'cannot read simulated host state'],
      ['a status only a transition has', '{"services":[{"name":"db","status":"PAUSED"}]}', 'only RUNNING or STOPPED can be configured'],
      ['an unknown key', '{"services":[],"colour":"red"}', 'colour: unknown key'],
      ['an unknown enum name', '{"services":[{"name":"db","status":"SLEEPING"}]}', 'expected one of'],
    ];
    for (const [label, content, problem] of cases) {
      const stateFile = join(dir, label.replaceAll(' ', '-'));
      if (content === undefined) await mkdir(stateFile);
      else await writeFile(stateFile, content);
      const error = await createSimulatedHost({ stateFile }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message, label).toContain(problem);
      expect(error?.message, label).toMatch(
        new RegExp(`\\(delete ${escapeRegExp(stateFile)} to start from the statuses of the host table\\)$`),
      );
    }
  });

  it.each([
    [
      'a start',
      { startDelayMs: 60_000, stopDelayMs: 1 },
      'cache',
      'web',
      ['db=RUNNING', 'web=STOPPED', 'worker=STOPPED', 'cache=STOPPED', 'legacy=STOPPED'],
    ],
    [
      'a stop',
      { startDelayMs: 1, stopDelayMs: 60_000 },
      'web',
      'cache',
      ['db=RUNNING', 'web=RUNNING', 'worker=STOPPED', 'cache=RUNNING', 'legacy=STOPPED'],
    ],
  ] as const)(
    'saves the status %s in flight is leaving, so that a crash leaves a file the next start takes',
    async (_label, delays, slow, quick, expected) => {
      const stateFile = join(dir, 'state.json');
      const crashed = join(dir, 'crashed.json');
      const first = await createSimulatedHost({ stateFile, ...delays });
      try {
        // The slow transition stays pending; the quick one settles and saves while it is.
        const slowOp = slow === 'cache' ? first.startService('cache') : first.stopService('web', { force: false });
        if (quick === 'web') await first.stopService('web', { force: false });
        else await first.startService('cache');
        expect((await first.getService(slow)).status).toBe(slow === 'cache' ? START_PENDING : STOP_PENDING);
        const saved = async () => {
          const text = await readFile(stateFile, 'utf8').catch(() => '{"services":[]}');
          return (JSON.parse(text).services as { name: string; status: string }[]).map((s) => `${s.name}=${s.status}`);
        };
        await expect.poll(saved).toEqual(expected);
        // What a crash (kill -9) now would leave behind: this file, the slow transition unfinished.
        await writeFile(crashed, await readFile(stateFile));
        const restarted = await createSimulatedHost({ stateFile: crashed });
        expect((await restarted.getService(slow)).status).toBe(slow === 'cache' ? STOPPED : RUNNING);
        await restarted.close();
        await first.close();
        await slowOp;
      } finally {
        await first.close();
      }
    },
  );

  it('reads a pending status saved by an older version as the status the transition started from', async () => {
    const stateFile = join(dir, 'old.json');
    await writeFile(
      stateFile,
      JSON.stringify({
        services: [
          { name: 'db', status: 'RUNNING' },
          { name: 'web', status: 'STOP_PENDING' },
          { name: 'worker', status: STOP_PENDING },
          { name: 'cache', status: 'START_PENDING' },
          { name: 'legacy', status: START_PENDING },
        ],
      }),
    );
    const h = await createSimulatedHost({ stateFile });
    expect(h.snapshot().services.map((s) => `${s.name}=${STATUS_NAME[s.status]}`)).toEqual([
      'db=RUNNING',
      'web=RUNNING',
      'worker=RUNNING',
      'cache=STOPPED',
      'legacy=STOPPED',
    ]);
    await h.close();
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
