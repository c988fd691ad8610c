import { describe, expect, it } from 'vitest';
import { createHostAdapter, detectHostAdapter, HostAdapterConfigError, parseHostAdapterSetting } from './adapter-factory.js';
import { failed, ok, ScriptedRunner } from './testing/scripted-runner.js';

const yes = async () => true;
const no = async () => false;

describe('HOST_ADAPTER', () => {
  it('accepts the four values, case-insensitively, and defaults to auto', () => {
    expect(parseHostAdapterSetting(undefined)).toBe('auto');
    expect(parseHostAdapterSetting('')).toBe('auto');
    expect(parseHostAdapterSetting('Simulated')).toBe('simulated');
    expect(parseHostAdapterSetting('systemd')).toBe('systemd');
    expect(parseHostAdapterSetting('windows')).toBe('windows');
  });

  it('refuses anything else with a clear error', async () => {
    expect(() => parseHostAdapterSetting('launchd')).toThrow(
      new HostAdapterConfigError('HOST_ADAPTER must be one of auto, systemd, windows, simulated; got "launchd"'),
    );
    await expect(createHostAdapter({ env: { HOST_ADAPTER: 'dbus' } })).rejects.toThrow(HostAdapterConfigError);
  });

  it('auto picks windows on win32, systemd when it runs, simulated otherwise', async () => {
    expect(await detectHostAdapter({ platform: 'win32', exists: yes })).toBe('windows');
    expect(await detectHostAdapter({ platform: 'linux', exists: no })).toBe('simulated');
    expect(
      await detectHostAdapter({
        platform: 'linux',
        exists: yes,
        runner: new ScriptedRunner([{ file: 'systemctl', args: ['--version'], reply: ok('systemd 255 (255.4-1ubuntu8)\n') }]),
      }),
    ).toBe('systemd');
    expect(
      await detectHostAdapter({
        platform: 'linux',
        exists: yes,
        runner: new ScriptedRunner([{ reply: failed(1, 'Failed to connect to bus') }]),
      }),
    ).toBe('simulated');
    expect(
      await detectHostAdapter({
        platform: 'linux',
        exists: yes,
        runner: new ScriptedRunner([{ reply: Object.assign(new Error('ENOENT'), { code: 'ENOENT' }) }]),
      }),
    ).toBe('simulated');
  });

  it('builds the adapter asked for', async () => {
    expect((await createHostAdapter({ env: { HOST_ADAPTER: 'systemd' } })).kind).toBe('systemd');
    expect((await createHostAdapter({ env: { HOST_ADAPTER: 'windows' } })).kind).toBe('windows');
    const sim = await createHostAdapter({ env: { HOST_ADAPTER: 'simulated' } });
    expect([sim.kind, await sim.getBiosSerial()]).toEqual(['simulated', 'SIM-0001']);
    // This machine: linux without a running systemd.
    expect((await createHostAdapter({ env: {}, platform: 'linux', exists: no })).kind).toBe('simulated');
  });

  it('prefers typed options over the environment', async () => {
    const host = await createHostAdapter({ hostAdapter: 'simulated', env: { HOST_ADAPTER: 'windows' } });
    expect(host.kind).toBe('simulated');
    await expect(
      createHostAdapter({
        hostAdapter: 'simulated',
        simulatedHostFile: '/nonexistent/typed.yaml',
        env: { SIMULATED_HOST_FILE: '/nonexistent/env.yaml' },
      }),
    ).rejects.toThrow('cannot read simulated host file /nonexistent/typed.yaml');
  });

  it('reports a bad SIMULATED_HOST_FILE at start-up', async () => {
    await expect(createHostAdapter({ env: { HOST_ADAPTER: 'simulated', SIMULATED_HOST_FILE: '/nonexistent/hosts.yaml' } })).rejects.toThrow(
      'cannot read simulated host file /nonexistent/hosts.yaml: ENOENT',
    );
  });
});
