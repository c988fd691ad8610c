// @module The worker thread of `@Blocking` pools: imports a task module and runs one export per message.
// Plain JavaScript so it starts without a TypeScript loader; `.ts` task modules load through tsx when present.
import { parentPort } from 'node:worker_threads';

const modules = new Map();

async function load(url) {
  let mod = modules.get(url);
  if (!mod) {
    if (/\.[cm]?tsx?$/.test(url)) {
      try {
        const { register } = await import('tsx/esm/api');
        register();
      } catch {
        // No tsx: the import below reports the unknown extension.
      }
    }
    mod = await import(url);
    modules.set(url, mod);
  }
  return mod;
}

parentPort.on('message', async ({ id, module, name, args }) => {
  try {
    const mod = await load(module);
    const fn = mod[name];
    if (typeof fn !== 'function') throw new Error(`${module} has no exported function ${name}`);
    // The time limit counts from here: thread start-up and module loading are not the task's fault.
    parentPort.postMessage({ id, started: true });
    const value = await fn(...args);
    parentPort.postMessage({ id, ok: true, value });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
