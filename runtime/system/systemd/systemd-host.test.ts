import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceStatus, StartType } from '../../../generated/system/v1alpha1/system.types.js';
import { HostError } from '../host-adapter.js';
import { GatedRunner } from '../testing/gated-runner.js';
import { failed, ok, ScriptedRunner, type ScriptedStep } from '../testing/scripted-runner.js';
import { readDmiSerial } from './dmi-serial.js';
import { SystemdHost } from './systemd-host.js';

const SHOW_STATE = '--property=Id,Description,LoadState,ActiveState,SubState,UnitFileState,FreezerState';
const SHOW_STOP =
  '--property=Id,Description,LoadState,ActiveState,SubState,UnitFileState,FreezerState,RequiredBy,BoundBy,ConsistsOf,RequisiteOf';

/** `systemctl show` output in systemd's own property order (it ignores the order asked for). */
function unit(id: string, fields: Record<string, string> = {}): string {
  const props: Record<string, string> = {
    Id: id,
    Description: `${id} description`,
    LoadState: 'loaded',
    ActiveState: 'active',
    FreezerState: 'running',
    SubState: 'running',
    UnitFileState: 'enabled',
    ...fields,
  };
  return `${Object.entries(props)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n')}\n`;
}

const NGINX_RUNNING = unit('nginx.service', { Description: 'A high performance web server and a reverse proxy server' });
const NOT_FOUND = unit('nope.service', {
  Description: 'nope.service',
  LoadState: 'not-found',
  ActiveState: 'inactive',
  SubState: 'dead',
  UnitFileState: '',
});
const NO_SYSTEMD =
  "System has not been booted with systemd as init system (PID 1). Can't operate.\nFailed to connect to bus: Host is down\n";
const POLKIT =
  'Failed to start nginx.service: Interactive authentication required.\n' +
  "See system logs and 'systemctl status nginx.service' for details.\n";

function systemd(steps: ScriptedStep[], options: { waitTimeoutMs?: number } = {}) {
  const runner = new ScriptedRunner(steps.map((s) => ({ file: 'systemctl', ...s })));
  return { runner, host: new SystemdHost({ runner, pollIntervalMs: 1, ...options }) };
}

async function hostError(promise: Promise<unknown>): Promise<HostError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HostError);
  return error as HostError;
}

describe('SystemdHost.getService', () => {
  it('runs systemctl show with -- before the unit and maps the properties', async () => {
    const { host, runner } = systemd([{ args: ['show', SHOW_STATE, '--', 'nginx.service'], reply: ok(NGINX_RUNNING) }]);
    expect(await host.getService('nginx.service')).toEqual({
      displayName: 'A high performance web server and a reverse proxy server',
      startType: StartType.AUTOMATIC,
      status: ServiceStatus.RUNNING,
    });
    expect(runner.remaining).toBe(0);
  });

  it.each([
    [{ ActiveState: 'activating', SubState: 'start-pre' }, ServiceStatus.START_PENDING],
    [{ ActiveState: 'deactivating', SubState: 'stop-sigterm' }, ServiceStatus.STOP_PENDING],
    [{ ActiveState: 'inactive', SubState: 'dead' }, ServiceStatus.STOPPED],
    [{ ActiveState: 'failed', SubState: 'failed' }, ServiceStatus.STOPPED],
    [{ ActiveState: 'maintenance', SubState: 'cleaning' }, ServiceStatus.STOPPED],
    [{ ActiveState: 'reloading', SubState: 'reload' }, ServiceStatus.RUNNING],
    [{ ActiveState: 'active', SubState: 'exited' }, ServiceStatus.RUNNING],
    [{ FreezerState: 'freezing' }, ServiceStatus.PAUSE_PENDING],
    [{ FreezerState: 'frozen' }, ServiceStatus.PAUSED],
    [{ FreezerState: 'thawing' }, ServiceStatus.CONTINUE_PENDING],
    [{ ActiveState: 'weird' }, ServiceStatus.UNKNOWN],
    [{ LoadState: 'bad-setting' }, ServiceStatus.UNKNOWN],
  ])('maps %j to status %i', async (fields, status) => {
    const { host } = systemd([{ reply: ok(unit('x.service', fields)) }]);
    expect((await host.getService('x.service')).status).toBe(status);
  });

  it.each([
    [{ UnitFileState: 'enabled-runtime' }, StartType.AUTOMATIC],
    [{ UnitFileState: 'disabled' }, StartType.MANUAL],
    [{ UnitFileState: 'static' }, StartType.MANUAL],
    [{ UnitFileState: 'indirect' }, StartType.MANUAL],
    [{ UnitFileState: 'generated' }, StartType.MANUAL],
    [{ UnitFileState: '' }, StartType.MANUAL],
    [{ UnitFileState: 'masked' }, StartType.DISABLED],
    [{ UnitFileState: 'masked-runtime' }, StartType.DISABLED],
    [{ LoadState: 'masked', UnitFileState: '' }, StartType.DISABLED],
  ])('maps %j to start type %i', async (fields, startType) => {
    const { host } = systemd([{ reply: ok(unit('x.service', fields)) }]);
    expect((await host.getService('x.service')).startType).toBe(startType);
  });

  it('falls back to the Id when the description is empty', async () => {
    const { host } = systemd([{ reply: ok(unit('x.service', { Description: '' })) }]);
    expect((await host.getService('x.service')).displayName).toBe('x.service');
  });

  it('answers not_found for LoadState=not-found', async () => {
    const { host } = systemd([{ reply: ok(NOT_FOUND) }]);
    const error = await hostError(host.getService('nope.service'));
    expect([error.kind, error.message]).toEqual(['not_found', 'unit nope.service does not exist']);
  });

  it('still reports a running unit whose file was deleted (not-found but active)', async () => {
    const { host } = systemd([{ reply: ok(unit('gone.service', { LoadState: 'not-found' })) }]);
    expect((await host.getService('gone.service')).status).toBe(ServiceStatus.RUNNING);
  });

  it("answers unavailable when systemd is not PID 1 (recorded on this project's CI)", async () => {
    const { host } = systemd([{ reply: failed(1, NO_SYSTEMD) }]);
    const error = await hostError(host.getService('nginx.service'));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toBe(
      "systemd is not running on this host: System has not been booted with systemd as init system (PID 1). Can't operate. " +
        'Failed to connect to bus: Host is down',
    );
  });

  it('answers unavailable when systemctl is not installed', async () => {
    const { host } = systemd([{ reply: Object.assign(new Error('spawn systemctl ENOENT'), { code: 'ENOENT' }) }]);
    const error = await hostError(host.getService('nginx.service'));
    expect([error.kind, error.message]).toEqual(['unavailable', 'systemctl is not installed on this host']);
  });
});

describe('SystemdHost.startService', () => {
  it('does nothing for a running unit', async () => {
    const { host, runner } = systemd([{ args: ['show', SHOW_STATE, '--', 'nginx.service'], reply: ok(NGINX_RUNNING) }]);
    await host.startService('nginx.service');
    expect(runner.calls).toHaveLength(1);
  });

  it('starts with --no-ask-password and polls until running', async () => {
    const { host, runner } = systemd([
      {
        args: ['show', SHOW_STATE, '--', 'nginx.service'],
        reply: ok(unit('nginx.service', { ActiveState: 'inactive', SubState: 'dead' })),
      },
      { args: ['start', '--no-ask-password', '--', 'nginx.service'], reply: ok('') },
      {
        args: ['show', SHOW_STATE, '--', 'nginx.service'],
        reply: ok(unit('nginx.service', { ActiveState: 'activating', SubState: 'start' })),
      },
      { args: ['show', SHOW_STATE, '--', 'nginx.service'], reply: ok(NGINX_RUNNING) },
    ]);
    await host.startService('nginx.service');
    expect(runner.remaining).toBe(0);
  });

  it('refuses a masked unit without running start', async () => {
    const { host, runner } = systemd([
      { reply: ok(unit('x.service', { LoadState: 'masked', ActiveState: 'inactive', UnitFileState: 'masked' })) },
    ]);
    const error = await hostError(host.startService('x.service'));
    expect([error.kind, error.message]).toEqual(['precondition_failed', 'unit x.service is masked and cannot be started']);
    expect(runner.calls).toHaveLength(1);
  });

  it.each([
    [failed(4, POLKIT), 'permission_denied'],
    [failed(1, 'Failed to start x.service: Access denied\n'), 'permission_denied'],
    [failed(5, 'Failed to start x.service: Unit x.service not found.\n'), 'not_found'],
    [failed(1, 'Failed to start x.service: Unit x.service is masked.\n'), 'precondition_failed'],
    [failed(6, 'Failed to start x.service: Unit x.service failed to load properly.\n'), 'precondition_failed'],
    [
      failed(
        1,
        'Job for x.service failed because the control process exited with error code.\n' +
          'See "systemctl status x.service" and "journalctl -xeu x.service" for details.\n',
      ),
      'command_failed',
    ],
  ])('maps a failed start %j to %s', async (result, kind) => {
    const { host } = systemd([
      { reply: ok(unit('x.service', { ActiveState: 'inactive', SubState: 'dead' })) },
      { args: ['start', '--no-ask-password', '--', 'x.service'], reply: result },
    ]);
    const error = await hostError(host.startService('x.service'));
    expect(error.kind).toBe(kind);
  });

  it("keeps systemctl's words in the message of a failed job", async () => {
    const { host } = systemd([
      { reply: ok(unit('x.service', { ActiveState: 'inactive' })) },
      { reply: failed(1, 'Job for x.service failed because the control process exited with error code.\n') },
    ]);
    expect((await hostError(host.startService('x.service'))).message).toBe(
      'systemctl start x.service failed (exit 1): Job for x.service failed because the control process exited with error code.',
    );
  });

  it('reports a unit that ends up failed', async () => {
    const { host } = systemd([
      { reply: ok(unit('x.service', { ActiveState: 'inactive' })) },
      { reply: ok('') },
      { reply: ok(unit('x.service', { ActiveState: 'failed', SubState: 'failed' })) },
    ]);
    const error = await hostError(host.startService('x.service'));
    expect([error.kind, error.message]).toEqual(['command_failed', 'unit x.service failed to start: ActiveState=failed SubState=failed']);
  });

  it('gives up with timeout when the unit stays activating', async () => {
    const activating = ok(unit('x.service', { ActiveState: 'activating', SubState: 'start' }));
    const { host } = systemd(
      [
        { reply: ok(unit('x.service', { ActiveState: 'inactive' })) },
        { reply: ok('') },
        ...Array.from({ length: 10_000 }, () => ({ reply: activating })),
      ],
      { waitTimeoutMs: 50 },
    );
    const error = await hostError(host.startService('x.service'));
    expect([error.kind, error.message]).toEqual(['timeout', 'timed out after 50 ms waiting for x.service to start']);
  });
});

describe('SystemdHost.stopService', () => {
  const running = (fields: Record<string, string> = {}) =>
    ok(unit('db.service', { RequiredBy: '', BoundBy: '', ConsistsOf: '', RequisiteOf: '', ...fields }));

  it('does nothing for a stopped unit', async () => {
    const { host, runner } = systemd([
      { args: ['show', SHOW_STOP, '--', 'db.service'], reply: ok(unit('db.service', { ActiveState: 'inactive', SubState: 'dead' })) },
    ]);
    await host.stopService('db.service', { force: false });
    expect(runner.calls).toHaveLength(1);
  });

  it('refuses without force when a dependent that propagates stop is active', async () => {
    const { host, runner } = systemd([
      {
        args: ['show', SHOW_STOP, '--', 'db.service'],
        reply: running({ RequiredBy: 'web.service multi-user.target', BoundBy: 'api.service' }),
      },
      {
        args: ['show', '--property=Id,ActiveState', '--', 'web.service', 'api.service'],
        reply: ok('Id=web.service\nActiveState=active\n\nId=api.service\nActiveState=inactive\n'),
      },
    ]);
    const error = await hostError(host.stopService('db.service', { force: false }));
    expect([error.kind, error.message]).toEqual([
      'dependents_running',
      'cannot stop db.service: dependent units are running: web.service (use force to stop them too)',
    ]);
    expect(runner.remaining).toBe(0);
  });

  it('with force stops the active dependents in the same transaction', async () => {
    const { host, runner } = systemd([
      { reply: running({ RequiredBy: 'web.service', ConsistsOf: 'worker.service' }) },
      {
        args: ['show', '--property=Id,ActiveState', '--', 'web.service', 'worker.service'],
        reply: ok('Id=web.service\nActiveState=active\n\nId=worker.service\nActiveState=activating\n'),
      },
      { args: ['stop', '--no-ask-password', '--', 'web.service', 'worker.service', 'db.service'], reply: ok('') },
      {
        args: ['show', SHOW_STATE, '--', 'db.service'],
        reply: ok(unit('db.service', { ActiveState: 'deactivating', SubState: 'stop-sigterm' })),
      },
      { args: ['show', SHOW_STATE, '--', 'db.service'], reply: ok(unit('db.service', { ActiveState: 'inactive', SubState: 'dead' })) },
    ]);
    await host.stopService('db.service', { force: true });
    expect(runner.remaining).toBe(0);
  });

  it('stops without force when no dependent runs', async () => {
    const { host, runner } = systemd([
      { reply: running() },
      { args: ['stop', '--no-ask-password', '--', 'db.service'], reply: ok('') },
      { reply: ok(unit('db.service', { ActiveState: 'inactive' })) },
    ]);
    await host.stopService('db.service', { force: false });
    expect(runner.remaining).toBe(0);
  });

  it('answers not_found for an unknown unit', async () => {
    const { host } = systemd([{ reply: ok(NOT_FOUND) }]);
    expect((await hostError(host.stopService('nope.service', { force: true }))).kind).toBe('not_found');
  });
});

describe('SystemdHost BIOS serial', () => {
  it('reads and trims product_serial; empty or missing is unavailable; unreadable is permission_denied', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loom-dmi-'));
    try {
      const path = join(dir, 'product_serial');
      await writeFile(path, 'PF2ABCDE\n');
      expect(await new SystemdHost({ serialPath: path }).getBiosSerial()).toBe('PF2ABCDE');
      await writeFile(path, '\n');
      expect((await hostError(new SystemdHost({ serialPath: path }).getBiosSerial())).message).toBe(
        `the firmware reports no BIOS serial (${path} is empty)`,
      );
      const missing = await hostError(new SystemdHost({ serialPath: join(dir, 'nope') }).getBiosSerial());
      expect(missing.kind).toBe('unavailable');
      // A directory stands in for an unreadable file when tests run as root (root reads 0400 files).
      const denied = join(dir, 'denied');
      await writeFile(denied, 'X\n');
      await chmod(denied, 0o000);
      const asRoot = process.getuid?.() === 0;
      const result = await new SystemdHost({ serialPath: denied }).getBiosSerial().then(
        (v) => v,
        (e: HostError) => e.kind,
      );
      expect(result).toBe(asRoot ? 'X' : 'permission_denied');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('readDmiSerial errors', () => {
  const failing = (code: string) => () => Promise.reject(Object.assign(new Error(`${code}: denied`), { code }));
  it('maps EACCES and EPERM to permission_denied, ENOENT to unavailable', async () => {
    const denied = await hostError(readDmiSerial('/sys/class/dmi/id/product_serial', failing('EACCES')));
    expect([denied.kind, denied.message]).toEqual([
      'permission_denied',
      'cannot read the BIOS serial from /sys/class/dmi/id/product_serial: only root may read it',
    ]);
    expect((await hostError(readDmiSerial('/x', failing('EPERM')))).kind).toBe('permission_denied');
    const missing = await hostError(readDmiSerial('/x', failing('ENOENT')));
    expect([missing.kind, missing.message]).toEqual([
      'unavailable',
      'no BIOS serial on this host: /x does not exist (no SMBIOS/DMI, e.g. in a container)',
    ]);
  });
});

describe('SystemdHost process pools', () => {
  it('answers GetService while start jobs fill their pool (a blocking systemctl start holds its slot)', async () => {
    const runner = new GatedRunner({
      isJob: (call) => call.args[0] === 'start',
      // Units are inactive until their start job is released, active after.
      reply: (call, released) =>
        call.args[0] === 'start' ? ok('') : ok(unit(call.args.at(-1)!, released ? {} : { ActiveState: 'inactive', SubState: 'dead' })),
    });
    const host = new SystemdHost({ runner, pollIntervalMs: 1 });
    const starts = ['a', 'b', 'c', 'd', 'e'].map((name) => host.startService(`${name}.service`));
    await runner.jobsRunning(4);
    // Generous bound, only so that a regression fails here instead of hanging until the test timeout.
    const answered = await Promise.race([
      host.getService('other.service'),
      new Promise((resolve) => setTimeout(resolve, 10_000, 'still waiting')),
    ]);
    expect(answered).toMatchObject({ displayName: 'other.service description', status: ServiceStatus.STOPPED });
    runner.release();
    await Promise.all(starts);
    expect(runner.peakJobs).toBe(4);
  });
});

describe("SystemdHost against this machine's real systemctl (read-only)", () => {
  it('reads a unit when systemd runs, and answers unavailable otherwise', async () => {
    const host = new SystemdHost();
    if (existsSync('/run/systemd/system')) {
      const info = await host.getService('systemd-journald.service');
      expect(info.status).toBe(ServiceStatus.RUNNING);
    } else {
      const error = await hostError(host.getService('systemd-journald.service'));
      expect(error.kind).toBe('unavailable');
    }
  });
});
