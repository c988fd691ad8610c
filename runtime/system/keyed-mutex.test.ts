import { describe, expect, it } from 'vitest';
import { KeyedMutex } from './keyed-mutex.js';

/** A promise with its resolver, to hold a critical section open as long as a test wants. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('KeyedMutex', () => {
  it('runs calls with one key one at a time, in arrival order', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const first = gate();
    const a = mutex.run('db', async () => {
      log.push('a start');
      await first.promise;
      log.push('a end');
    });
    const b = mutex.run('db', async () => void log.push('b'));
    const c = mutex.run('db', async () => void log.push('c'));
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['a start']);
    first.open();
    await Promise.all([a, b, c]);
    expect(log).toEqual(['a start', 'a end', 'b', 'c']);
    expect(mutex.size).toBe(0);
  });

  it('runs different keys in parallel', async () => {
    const mutex = new KeyedMutex();
    const held = gate();
    const log: string[] = [];
    const a = mutex.run('db', async () => {
      await held.promise;
      log.push('db');
    });
    await mutex.run('web', async () => void log.push('web'));
    expect(log).toEqual(['web']);
    held.open();
    await a;
    expect(log).toEqual(['web', 'db']);
  });

  it('releases the lock when the function throws', async () => {
    const mutex = new KeyedMutex();
    await expect(
      mutex.run('db', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(mutex.run('db', async () => 'next')).resolves.toBe('next');
  });

  it('drops a waiter whose signal aborts, without running it, and keeps the queue going', async () => {
    const mutex = new KeyedMutex();
    const held = gate();
    const ran: string[] = [];
    const a = mutex.run('db', () => held.promise);
    const controller = new AbortController();
    const b = mutex.run('db', async () => void ran.push('b'), controller.signal);
    const c = mutex.run('db', async () => void ran.push('c'));
    controller.abort(new Error('client went away'));
    await expect(b).rejects.toThrow('client went away');
    held.open();
    await Promise.all([a, c]);
    expect(ran).toEqual(['c']);
  });

  it('refuses at once when the signal is already aborted', async () => {
    const mutex = new KeyedMutex();
    await expect(mutex.run('db', async () => 1, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(mutex.size).toBe(0);
  });
});
