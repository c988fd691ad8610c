/**
 * GetService never waits for a start or stop in progress, on the systemd adapter too: there a
 * `systemctl start` blocks until its job ends, so start and stop jobs run in a pool of their own.
 * A fake `systemctl` (a shell script run through the real `execFile` runner) holds every start
 * until the test releases it; the calls go over Connect on a real socket.
 */
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSystemConnectClient } from '../../generated/system/v1alpha1/system.client.js';
import { ServiceStatus } from '../../generated/system/v1alpha1/system.types.js';
import { SystemdHost } from '../../runtime/system/systemd/systemd-host.js';
import { type RunningSystem, startSystem } from './support/system-server.js';

/**
 * `start` marks the unit started and waits for the file `release`; `show` prints the last unit
 * named as active once it was started and released, inactive before.
 */
const FAKE_SYSTEMCTL = `#!/bin/sh
dir=$(dirname "$0")
for arg in "$@"; do unit="$arg"; done
case "$1" in
  start)
    touch "$dir/started-$unit"
    while [ ! -e "$dir/release" ]; do sleep 0.02; done
    exit 0;;
  show)
    state=inactive; sub=dead
    if [ -e "$dir/started-$unit" ] && [ -e "$dir/release" ]; then state=active; sub=running; fi
    printf 'Id=%s\\nDescription=Fake %s\\nLoadState=loaded\\n' "$unit" "$unit"
    printf 'ActiveState=%s\\nSubState=%s\\nUnitFileState=enabled\\nFreezerState=running\\n' "$state" "$sub"
    exit 0;;
esac
echo "unexpected: $*" >&2
exit 1
`;

describe('the systemd adapter under start jobs that do not end', () => {
  let dir: string;
  let system: RunningSystem | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loom-pools-'));
    await writeFile(join(dir, 'systemctl'), FAKE_SYSTEMCTL);
    await chmod(join(dir, 'systemctl'), 0o755);
  });
  afterEach(async () => {
    await writeFile(join(dir, 'release'), '');
    await system?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers GetService over Connect while four StartService calls hold every job slot', async () => {
    system = await startSystem(new SystemdHost({ systemctl: join(dir, 'systemctl'), pollIntervalMs: 10 }));
    const client = createSystemConnectClient({ baseUrl: system.baseUrl });
    const starts = ['a', 'b', 'c', 'd', 'e'].map((name) => client.startService({ name }));
    const started = async () => (await readdir(dir)).filter((f) => f.startsWith('started-')).sort();
    // Four of the five hold the job slots; which four depends on the order their connections arrive.
    await expect.poll(async () => (await started()).length, { timeout: 30_000 }).toBe(4);

    // The client's own deadline is there only to turn a regression into a failure instead of a hang.
    expect(await client.getService({ name: 'other' }, { timeoutMs: 10_000 })).toEqual({
      displayName: 'Fake other.service',
      startType: 2,
      status: ServiceStatus.STOPPED,
    });
    // The fifth start waits for a job slot: four at most run at once.
    expect(await started()).toHaveLength(4);

    await writeFile(join(dir, 'release'), '');
    expect(await Promise.all(starts)).toEqual([{}, {}, {}, {}, {}]);
    expect(await started()).toHaveLength(5);
  });
});
