import { describe, expect, it } from 'vitest';
import { ServiceStatus, StartType } from '../../../generated/system/v1alpha1/system.types.js';
import { HostError } from '../host-adapter.js';
import { GatedRunner } from '../testing/gated-runner.js';
import { failed, ok, ScriptedRunner, type ScriptedStep } from '../testing/scripted-runner.js';
import { BIOS_SERIAL_SCRIPT, GET_SERVICE_SCRIPT, START_SERVICE_SCRIPT, STOP_SERVICE_SCRIPT } from './powershell-scripts.js';
import { parseScriptOutput, WindowsHost } from './windows-host.js';

function windows(steps: ScriptedStep[]) {
  const runner = new ScriptedRunner(steps.map((s) => ({ file: 'powershell.exe', ...s })));
  return { runner, host: new WindowsHost({ runner, waitTimeoutMs: 5000 }) };
}

function decodedScript(args: readonly string[]): string {
  expect(args.slice(0, -1)).toEqual(['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand']);
  return Buffer.from(args.at(-1)!, 'base64').toString('utf16le');
}

async function hostError(promise: Promise<unknown>): Promise<HostError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HostError);
  return error as HostError;
}

/** Recorded `ConvertTo-Json -Compress` lines, as Windows PowerShell 5.1 prints them (CRLF). */
const ISCSI = '{"startMode":"Manual","ok":true,"state":"Stopped","displayName":"Microsoft iSCSI Initiator Service"}\r\n';

describe('WindowsHost', () => {
  it('passes the name as an environment variable, never inside the script', async () => {
    const name = 'MSSQL$SQLEXPRESS';
    const { host, runner } = windows([
      { reply: ok('{"ok":true,"displayName":"SQL Server (SQLEXPRESS)","state":"Running","startMode":"Auto"}\r\n') },
    ]);
    expect(await host.getService(name)).toEqual({
      displayName: 'SQL Server (SQLEXPRESS)',
      startType: StartType.AUTOMATIC,
      status: ServiceStatus.RUNNING,
    });
    const [call] = runner.calls;
    const script = decodedScript(call!.args);
    expect(script).toBe(GET_SERVICE_SCRIPT);
    expect(script).not.toContain(name);
    expect(script).toContain('$env:LOOM_SERVICE_NAME');
    expect(call!.env).toEqual({ LOOM_SERVICE_NAME: name });
  });

  it('maps Win32_Service State and StartMode strings', async () => {
    const { host } = windows([{ reply: ok(ISCSI) }]);
    expect(await host.getService('MSiSCSI')).toEqual({
      displayName: 'Microsoft iSCSI Initiator Service',
      startType: StartType.MANUAL,
      status: ServiceStatus.STOPPED,
    });
    for (const [state, status] of [
      ['Start Pending', ServiceStatus.START_PENDING],
      ['Paused', ServiceStatus.PAUSED],
      ['Continue Pending', ServiceStatus.CONTINUE_PENDING],
      ['Odd', ServiceStatus.UNKNOWN],
    ] as const) {
      const { host: h } = windows([{ reply: ok(JSON.stringify({ ok: true, displayName: 'X', state, startMode: 'Boot' })) }]);
      expect(await h.getService('x')).toEqual({ displayName: 'X', startType: StartType.BOOT, status });
    }
  });

  it('answers not_found as the script reports it', async () => {
    const { host } = windows([{ reply: ok('{"ok":false,"kind":"not_found","message":"service nope does not exist"}\r\n') }]);
    const error = await hostError(host.getService('nope'));
    expect([error.kind, error.message]).toEqual(['not_found', 'service nope does not exist']);
  });

  it('reads Win32_BIOS.SerialNumber, trimmed', async () => {
    const { host, runner } = windows([{ reply: ok('{"ok":true,"serialNumber":"  VMware-56 4d 12  "}\r\n') }]);
    expect(await host.getBiosSerial()).toBe('VMware-56 4d 12');
    expect(decodedScript(runner.calls[0]!.args)).toBe(BIOS_SERIAL_SCRIPT);
    expect(runner.calls[0]!.env).toEqual({});
  });

  it('starts with the timeout in the environment', async () => {
    const { host, runner } = windows([{ reply: ok('{"ok":true,"changed":true}\r\n') }]);
    await host.startService('Spooler');
    expect(decodedScript(runner.calls[0]!.args)).toBe(START_SERVICE_SCRIPT);
    expect(runner.calls[0]!.env).toEqual({ LOOM_SERVICE_NAME: 'Spooler', LOOM_TIMEOUT_MS: '5000' });
  });

  it('stops with force passed as data', async () => {
    const { host, runner } = windows([{ reply: ok('{"ok":true,"changed":true}') }, { reply: ok('{"ok":true,"changed":false}') }]);
    await host.stopService('Spooler', { force: true });
    await host.stopService('Spooler', { force: false });
    expect(decodedScript(runner.calls[0]!.args)).toBe(STOP_SERVICE_SCRIPT);
    expect(runner.calls.map((c) => c.env?.LOOM_FORCE)).toEqual(['true', 'false']);
  });

  it.each([
    [
      '{"ok":false,"kind":"dependents_running","message":"cannot stop LanmanWorkstation: dependent services are running: ' +
        'Netlogon (use force to stop them too)"}',
      'dependents_running',
    ],
    ['{"ok":false,"kind":"timeout","message":"timed out after 5000 ms waiting for service Spooler to stop"}', 'timeout'],
    ['{"ok":false,"kind":"permission_denied","message":"Access denied"}', 'permission_denied'],
    ['{"ok":false,"kind":"win32","code":2,"service":"Spooler"}', 'permission_denied'],
    ['{"ok":false,"kind":"win32","code":3,"service":"Spooler"}', 'dependents_running'],
    ['{"ok":false,"kind":"win32","code":14,"service":"Spooler"}', 'precondition_failed'],
    ['{"ok":false,"kind":"win32","code":8,"service":"Spooler"}', 'command_failed'],
    ['{"ok":false,"kind":"something-new","message":"?"}', 'command_failed'],
  ])('maps the script result %s to %s', async (line, kind) => {
    const { host } = windows([{ reply: ok(`${line}\r\n`) }]);
    expect((await hostError(host.stopService('Spooler', { force: false }))).kind).toBe(kind);
  });

  it('explains a Win32 return value', async () => {
    const { host } = windows([{ reply: ok('{"ok":false,"kind":"win32","code":14,"service":"Spooler"}') }]);
    expect((await hostError(host.startService('Spooler'))).message).toBe(
      'StartService of Spooler failed with return value 14: the service has been disabled from the system',
    );
  });

  it("reports output that is not a result as command_failed, with PowerShell's words", async () => {
    const { host } = windows([{ reply: failed(1, 'Get-CimInstance : Invalid namespace\r\nAt line:1 char:1\r\n') }]);
    const error = await hostError(host.getService('x'));
    expect([error.kind, error.message]).toEqual([
      'command_failed',
      'powershell.exe exited with 1 without a result: Get-CimInstance : Invalid namespace At line:1 char:1',
    ]);
  });

  it('answers unavailable where PowerShell does not exist (like here)', async () => {
    const { host } = windows([{ reply: Object.assign(new Error('spawn powershell.exe ENOENT'), { code: 'ENOENT' }) }]);
    const error = await hostError(host.getService('x'));
    expect([error.kind, error.message]).toEqual(['unavailable', 'powershell.exe is not installed on this host']);
  });
});

describe('STOP_SERVICE_SCRIPT stop order (PowerShell cannot run here: the script text is checked)', () => {
  it('lists running dependents depth-first, each after its own dependents, and stops them in that order before the service', () => {
    const walk = /function Add-LoomDependentsFirst\(\$service\) \{([\s\S]*?)\n {2}\}\n/.exec(STOP_SERVICE_SCRIPT);
    expect(walk, 'the depth-first walk').not.toBeNull();
    const body = walk![1]!;
    // Post-order: recurse into a dependent's dependents before listing the dependent itself, so
    // for A <- B, A <- C, C <- B the list is B, C (never C before B, which needs it).
    expect(body.indexOf('Add-LoomDependentsFirst $dep')).toBeGreaterThan(-1);
    expect(body.indexOf('Add-LoomDependentsFirst $dep')).toBeLessThan(body.indexOf('[void]$order.Add($dep)'));
    expect(body).toContain("$dep.State -ne 'Stopped'");
    // The list is used as built (a reversed breadth-first list is what stopped C before B).
    expect(STOP_SERVICE_SCRIPT).not.toMatch(/Reverse\(|Queue/);
    const after = STOP_SERVICE_SCRIPT.slice(STOP_SERVICE_SCRIPT.indexOf('Add-LoomDependentsFirst $svc'));
    expect(after.indexOf('[void]$order.Add($svc)')).toBeLessThan(after.indexOf('foreach ($target in $order)'));
  });
});

describe('WindowsHost process pools', () => {
  it('answers GetService while StartService and StopService scripts fill their pool', async () => {
    // Start and stop scripts get LOOM_TIMEOUT_MS (they wait for the service inside PowerShell); queries do not.
    const runner = new GatedRunner({
      isJob: (call) => call.env?.LOOM_TIMEOUT_MS !== undefined,
      reply: (call) =>
        ok(
          call.env?.LOOM_TIMEOUT_MS !== undefined
            ? '{"ok":true,"changed":true}\r\n'
            : JSON.stringify({ ok: true, displayName: `${call.env?.LOOM_SERVICE_NAME} service`, state: 'Running', startMode: 'Auto' }),
        ),
    });
    const host = new WindowsHost({ runner, waitTimeoutMs: 5000 });
    const jobs = [
      host.startService('A'),
      host.stopService('B', { force: true }),
      host.startService('C'),
      host.startService('D'),
      host.startService('E'),
    ];
    await runner.jobsRunning(4);
    // Generous bound, only so that a regression fails here instead of hanging until the test timeout.
    const answered = await Promise.race([
      host.getService('Spooler'),
      new Promise((resolve) => setTimeout(resolve, 10_000, 'still waiting')),
    ]);
    expect(answered).toEqual({ displayName: 'Spooler service', startType: StartType.AUTOMATIC, status: ServiceStatus.RUNNING });
    runner.release();
    await Promise.all(jobs);
    expect(runner.peakJobs).toBe(4);
  });
});

describe('parseScriptOutput', () => {
  it('takes the last JSON object line, after warnings and a BOM', () => {
    expect(parseScriptOutput('\uFEFFWARNING: something\r\n{"ok":true,"a":1}\r\n')).toEqual({ ok: true, a: 1 });
    expect(parseScriptOutput('no json here')).toBeUndefined();
    expect(parseScriptOutput('{broken')).toBeUndefined();
  });
});
