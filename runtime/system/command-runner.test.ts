import { describe, expect, it } from 'vitest';
import { type CommandRunner, createExecFileRunner, limitConcurrency, spawnFailureToHostError } from './command-runner.js';
import { HostError } from './host-adapter.js';

const node = process.execPath;

describe('createExecFileRunner', () => {
  const runner = createExecFileRunner();

  it('passes every argument verbatim, without a shell', async () => {
    const hostile = ['$(touch /tmp/pwned)', '; rm -rf /', '`id`', 'a b', "'quoted'", '*'];
    const result = await runner.run(node, ['-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', ...hostile]);
    expect(result).toEqual({ exitCode: 0, stdout: JSON.stringify(hostile), stderr: '' });
  });

  it('reports a non-zero exit as a result, with both streams', async () => {
    const result = await runner.run(node, ['-e', 'process.stdout.write("out"); process.stderr.write("err"); process.exit(5)']);
    expect(result).toEqual({ exitCode: 5, stdout: 'out', stderr: 'err' });
  });

  it('adds environment variables to the inherited environment', async () => {
    const result = await runner.run(
      node,
      ['-e', 'process.stdout.write(process.env.LOOM_SERVICE_NAME + "|" + (process.env.PATH ? "path" : "none"))'],
      { env: { LOOM_SERVICE_NAME: 'db; reboot' } },
    );
    expect(result.stdout).toBe('db; reboot|path');
  });

  it('rejects with ENOENT for a missing program, and with TimeoutError for a slow one', async () => {
    await expect(runner.run('/nonexistent/systemctl', [])).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(runner.run(node, ['-e', 'setTimeout(() => {}, 60_000)'], { timeoutMs: 200 })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });
});

describe('spawnFailureToHostError', () => {
  it('maps runner failures to host error kinds', () => {
    const kind = (error: unknown, signal?: AbortSignal) => spawnFailureToHostError(error, 'systemctl', signal).kind;
    expect(kind(Object.assign(new Error('spawn systemctl ENOENT'), { code: 'ENOENT' }))).toBe('unavailable');
    expect(kind(Object.assign(new Error('spawn systemctl EACCES'), { code: 'EACCES' }))).toBe('permission_denied');
    expect(kind(Object.assign(new Error('slow'), { name: 'TimeoutError' }))).toBe('timeout');
    expect(kind(new Error('aborted'), AbortSignal.abort())).toBe('canceled');
    expect(kind(new Error('weird'))).toBe('command_failed');
    const host = new HostError('not_found', 'x');
    expect(spawnFailureToHostError(host, 'systemctl', undefined)).toBe(host);
  });
});

describe('limitConcurrency', () => {
  it('never runs more commands at once than the limit, and runs them all', async () => {
    let running = 0;
    let peak = 0;
    const slow: CommandRunner = {
      async run() {
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        return { exitCode: 0, stdout: '', stderr: '' };
      },
    };
    const limited = limitConcurrency(slow, 3);
    const results = await Promise.all(Array.from({ length: 20 }, () => limited.run('systemctl', [])));
    expect(results).toHaveLength(20);
    expect(peak).toBe(3);
  });

  it('frees the slot when a command fails', async () => {
    const failing: CommandRunner = { run: () => Promise.reject(new Error('boom')) };
    const limited = limitConcurrency(failing, 1);
    await expect(limited.run('x', [])).rejects.toThrow('boom');
    await expect(limited.run('x', [])).rejects.toThrow('boom');
  });
});

describe('limitConcurrency and cancellation', () => {
  it('drops a waiting call whose signal aborts: it rejects and its command never runs', async () => {
    const ran: string[] = [];
    let finishFirst!: () => void;
    const runner: CommandRunner = {
      async run(file) {
        ran.push(file);
        if (file === 'first') await new Promise<void>((resolve) => (finishFirst = resolve));
        return { exitCode: 0, stdout: '', stderr: '' };
      },
    };
    const limited = limitConcurrency(runner, 1);
    const first = limited.run('first', []);
    const controller = new AbortController();
    const canceled = limited.run('canceled', [], { signal: controller.signal });
    const third = limited.run('third', []);
    controller.abort(new Error('client went away'));
    await expect(canceled).rejects.toThrow('client went away');
    finishFirst();
    await first;
    await third;
    expect(ran).toEqual(['first', 'third']);
  });
});
