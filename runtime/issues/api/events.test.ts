import { describe, expect, it } from 'vitest';
import { createIssueEventBus, type IssueEventMap } from './events.js';

const event = { oldTitle: 'a', newTitle: 'b' } as unknown as IssueEventMap['issue.title_changed'];

describe('issue event bus', () => {
  it('delivers to subscribers of the type, in order, until they unsubscribe', () => {
    const bus = createIssueEventBus();
    const seen: string[] = [];
    const off = bus.subscribe('issue.title_changed', (e) => void seen.push(`1:${e.newTitle}`));
    const second = (e: IssueEventMap['issue.title_changed']) => void seen.push(`2:${e.newTitle}`);
    bus.subscribe('issue.title_changed', second);
    bus.subscribe('issue.state_changed', () => void seen.push('state'));
    bus.publish('issue.title_changed', event);
    off();
    expect(bus.unsubscribe('issue.title_changed', second)).toBe(true);
    expect(bus.unsubscribe('issue.title_changed', second)).toBe(false);
    bus.publish('issue.title_changed', event);
    expect(seen).toEqual(['1:b', '2:b']);
    expect(bus.listenerCount('issue.title_changed')).toBe(0);
  });

  it('isolates failing listeners (sync and async) and reports them', async () => {
    const errors: unknown[] = [];
    const bus = createIssueEventBus({ onListenerError: (error) => errors.push(error) });
    let delivered = false;
    bus.subscribe('issue.title_changed', () => {
      throw new Error('sync');
    });
    bus.subscribe('issue.title_changed', async () => {
      throw new Error('async');
    });
    bus.subscribe('issue.title_changed', () => {
      delivered = true;
    });
    expect(() => bus.publish('issue.title_changed', event)).not.toThrow();
    await new Promise((r) => setImmediate(r));
    expect(delivered).toBe(true);
    expect(errors.map((e) => (e as Error).message)).toEqual(['sync', 'async']);
  });
});
