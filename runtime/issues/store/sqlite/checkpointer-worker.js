// @module The thread of the SQLite store's WAL checkpointer (see checkpointer.ts): its own connection
// to the database file, checking every `intervalMs` whether another connection committed, and then
// copying the log into the database with a PASSIVE checkpoint, which waits for no reader or writer.
// An error ends the thread; the store then checkpoints on commit again. Plain JavaScript so that it
// starts without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { path, intervalMs } = workerData;
const db = new Database(path, { fileMustExist: true });
// No version seen yet: the first tick checkpoints what was committed before this thread started.
let seen;

const timer = setInterval(() => {
  const version = db.pragma('data_version', { simple: true });
  if (version === seen) return;
  const [{ log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)');
  // Frames a reader still needs stay behind; the next tick tries them again.
  if (checkpointed >= log) seen = version;
}, intervalMs);

parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
