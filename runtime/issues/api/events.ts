/**
 * @module
 * The in-process event bus of the Issues service: edits publish typed events (a title change,
 * a state change) after they are committed, and any code in the process can subscribe.
 */
import type { CommentRow, IssueRow, RepoRow, UserRow } from '../store/store.js';

/** What every issue event carries. */
interface IssueEventBase {
  readonly repo: RepoRow;
  /** The issue after the change. */
  readonly issue: IssueRow;
  /** Who made the change. */
  readonly actor: UserRow;
  /** The timeline entry recorded for the change (counted in the issue's `comments`). */
  readonly comment: CommentRow;
}

/** Event types and their payloads. */
export interface IssueEventMap {
  'issue.title_changed': IssueEventBase & { readonly oldTitle: string; readonly newTitle: string };
  'issue.state_changed': IssueEventBase & { readonly oldState: 'open' | 'closed'; readonly newState: 'open' | 'closed' };
}

export type IssueEventType = keyof IssueEventMap;

/** A subscriber; a returned promise is not awaited by the publisher. */
export type IssueEventListener<K extends IssueEventType> = (event: IssueEventMap[K]) => void | Promise<void>;

/** Options of {@link createIssueEventBus}. */
export interface IssueEventBusOptions {
  /**
   * Receives errors thrown (or rejected) by listeners, so that one faulty subscriber never fails
   * the request that published the event, nor hides the event from the other subscribers.
   * @default logs to `console.error`
   */
  readonly onListenerError?: (error: unknown, type: IssueEventType) => void;
}

/** A typed publish/subscribe channel for issue events. */
export interface IssueEventBus {
  /**
   * Adds a listener; returns a function that removes it.
   *
   * @example
   * const off = bus.subscribe('issue.state_changed', (e) => console.log(e.issue.index, e.oldState, '→', e.newState));
   * off();
   */
  subscribe<K extends IssueEventType>(type: K, listener: IssueEventListener<K>): () => void;
  /** Removes a listener added with {@link subscribe}; `false` when it was not subscribed. */
  unsubscribe<K extends IssueEventType>(type: K, listener: IssueEventListener<K>): boolean;
  /** Delivers an event to the current listeners of its type, in subscription order. */
  publish<K extends IssueEventType>(type: K, event: IssueEventMap[K]): void;
  /** Number of listeners of a type. */
  listenerCount(type: IssueEventType): number;
}

/**
 * Creates an event bus.
 *
 * @example
 * const bus = createIssueEventBus();
 * bus.subscribe('issue.title_changed', ({ oldTitle, newTitle }) => audit(oldTitle, newTitle));
 */
export function createIssueEventBus(options: IssueEventBusOptions = {}): IssueEventBus {
  const onListenerError = options.onListenerError ?? ((error, type) => console.error(`issue event listener for ${type} failed`, error));
  const listeners = new Map<IssueEventType, Set<IssueEventListener<never>>>();
  const setOf = (type: IssueEventType) => {
    let set = listeners.get(type);
    if (!set) listeners.set(type, (set = new Set()));
    return set;
  };
  return {
    subscribe(type, listener) {
      setOf(type).add(listener as IssueEventListener<never>);
      return () => void setOf(type).delete(listener as IssueEventListener<never>);
    },
    unsubscribe(type, listener) {
      return setOf(type).delete(listener as IssueEventListener<never>);
    },
    publish(type, event) {
      // A copy, so listeners that unsubscribe while running do not skip their neighbours.
      for (const listener of [...setOf(type)] as IssueEventListener<typeof type>[]) {
        try {
          const result = listener(event);
          if (result instanceof Promise) result.catch((error: unknown) => onListenerError(error, type));
        } catch (error) {
          onListenerError(error, type);
        }
      }
    },
    listenerCount(type) {
      return setOf(type).size;
    },
  };
}
