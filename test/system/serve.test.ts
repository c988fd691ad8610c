/**
 * The gRPC listeners of `serveSystemGrpc`: socket file handling and the loopback default.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SystemServiceDescriptor } from '../../generated/system/v1alpha1/system.codec.js';
import { createGrpcClient } from '../../runtime/rpc/index.js';
import { serveSystemGrpc } from '../../runtime/system/serve.js';
import { SimulatedHost } from '../../runtime/system/simulated/simulated-host.js';
import { SystemHandler } from '../../runtime/system/system-handler.js';

describe('serveSystemGrpc', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loom-serve-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('replaces a stale socket left by a crashed server, and serves on it', async () => {
    const path = join(dir, 'system.sock');
    // A socket file whose server is gone: what a crash (SIGKILL, no cleanup) leaves behind.
    const script = `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`;
    await new Promise<void>((resolve) => execFile(process.execPath, ['-e', script], () => resolve()));
    expect((await stat(path)).isSocket()).toBe(true);
    const handle = await serveSystemGrpc(new SystemHandler(new SimulatedHost()), { grpcSocket: path });
    const client = createGrpcClient(SystemServiceDescriptor, `unix:${path}`);
    try {
      expect(handle.addresses).toEqual([`unix:${path}`]);
      expect(await client.getBIOSSerialNumber({})).toEqual({ serialNumber: 'SIM-0001' });
      expect(((await stat(path)).mode & 0o777).toString(8)).toBe('600');
    } finally {
      client.close();
      await handle.close(100);
    }
  });

  it('refuses to delete a regular file at the socket path', async () => {
    const path = join(dir, 'important.txt');
    await writeFile(path, 'keep me');
    await expect(serveSystemGrpc(new SystemHandler(new SimulatedHost()), { grpcSocket: path })).rejects.toThrow(
      `cannot listen for gRPC on ${path}: a file that is not a socket is in the way`,
    );
    expect((await stat(path)).isFile()).toBe(true);
  });

  it('listens on loopback by default', async () => {
    const handle = await serveSystemGrpc(new SystemHandler(new SimulatedHost()), { grpcPort: 0 });
    try {
      expect(handle.addresses).toEqual([`127.0.0.1:${handle.grpcPort}`]);
      expect(handle.grpcPort).toBeGreaterThan(0);
    } finally {
      await handle.close(100);
    }
  });
});
