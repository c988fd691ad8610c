/**
 * @module
 * `--watch`: regenerate when a schema, an import folder or a template folder changes.
 * `fs.watch` (recursive) with a short debounce, because editors save in bursts
 * (write temp file, rename, touch).
 */

import type { FSWatcher } from 'node:fs';
import { watch } from 'node:fs';
import { resolve, sep } from 'node:path';

export interface WatchOptions {
  /** Folders to watch, recursively. */
  readonly dirs: readonly string[];
  /** Changes below this folder are ignored (our own output). */
  readonly ignore: string;
  /** Called after changes settle; calls never overlap. */
  readonly onChange: (changed: readonly string[]) => Promise<void>;
  /** @default 150 */
  readonly debounceMs?: number;
}

/**
 * Starts watching; returns a function that stops (resolving once any run in progress ends).
 *
 * @example
 * const stop = watchFolders({ dirs: ['/repo/schemas'], ignore: '/repo/generated', onChange: regenerate });
 * process.once('SIGINT', stop);
 */
export function watchFolders(options: WatchOptions): () => Promise<void> {
  const ignore = resolve(options.ignore) + sep;
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const flush = async () => {
    timer = undefined;
    if (running) {
      // A run is in progress: try again when it ends, so no change is lost.
      await running;
      if (!timer && pending.size > 0) timer = setTimeout(flush, 0);
      return;
    }
    const changed = [...pending].sort();
    pending.clear();
    running = options.onChange(changed).finally(() => (running = undefined));
    await running;
  };
  const watchers: FSWatcher[] = [];
  for (const dir of new Set(options.dirs.map((d) => resolve(d)))) {
    const w = watch(dir, { recursive: true }, (_event, name) => {
      const full = resolve(dir, name ? String(name) : '.');
      if ((full + sep).startsWith(ignore)) return;
      pending.add(full);
      if (timer) clearTimeout(timer);
      timer = setTimeout(flush, options.debounceMs ?? 150);
    });
    watchers.push(w);
  }
  return async () => {
    if (timer) clearTimeout(timer);
    for (const w of watchers) w.close();
    // Let a run in progress finish, so Ctrl-C never leaves the output half written.
    await running;
  };
}
