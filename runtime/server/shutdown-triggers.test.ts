import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DUPLICATE_SIGNAL_MS, type ShutdownTrigger, watchShutdownTriggers } from './shutdown-triggers.js';

function harness(watchParent = false) {
  const signals = new EventEmitter();
  let parent = 100;
  const events: string[] = [];
  const dispose = watchShutdownTriggers({
    signals: signals as unknown as Pick<NodeJS.Process, 'on' | 'off'>,
    watchParent,
    parentPid: () => parent,
    onStop: (trigger: ShutdownTrigger) => events.push(`stop ${trigger.kind === 'signal' ? trigger.signal : `parent ${trigger.parentPid}`}`),
    onForce: (signal) => events.push(`force ${signal}`),
    onDuplicate: (signal) => events.push(`duplicate ${signal}`),
  });
  return { signals, events, dispose, orphan: () => (parent = 1) };
}

describe('watchShutdownTriggers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stops on the first signal, ignores the same Ctrl-C delivered twice, and forces on a later one', () => {
    vi.useFakeTimers();
    const { signals, events, dispose } = harness();
    signals.emit('SIGINT', 'SIGINT');
    // npm relays the terminal's Ctrl-C a few milliseconds later.
    vi.advanceTimersByTime(5);
    signals.emit('SIGINT', 'SIGINT');
    expect(events).toEqual(['stop SIGINT', 'duplicate SIGINT']);
    vi.advanceTimersByTime(DUPLICATE_SIGNAL_MS);
    signals.emit('SIGTERM', 'SIGTERM');
    expect(events).toEqual(['stop SIGINT', 'duplicate SIGINT', 'force SIGTERM']);
    dispose();
    signals.emit('SIGTERM', 'SIGTERM');
    expect(events).toHaveLength(3);
  });

  it('stops when the parent exits (npm’s shell killed by SIGTERM), once', () => {
    vi.useFakeTimers();
    const { signals, events, orphan, dispose } = harness(true);
    vi.advanceTimersByTime(1_000);
    expect(events).toEqual([]);
    orphan();
    vi.advanceTimersByTime(1_000);
    expect(events).toEqual(['stop parent 100']);
    // The terminal's signal arriving just after counts as the same request.
    signals.emit('SIGINT', 'SIGINT');
    expect(events).toEqual(['stop parent 100', 'duplicate SIGINT']);
    dispose();
  });

  it('does not stop on the parent’s exit after a signal already did', () => {
    vi.useFakeTimers();
    const { signals, events, orphan, dispose } = harness(true);
    signals.emit('SIGTERM', 'SIGTERM');
    orphan();
    vi.advanceTimersByTime(1_000);
    expect(events).toEqual(['stop SIGTERM']);
    dispose();
  });
});
