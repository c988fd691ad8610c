// @module The thread of the SQLite store's WAL checkpointer (see checkpointer.ts): its own connection
// to the database file, checking every `intervalMs` whether another connection committed, and then
// copying the log into the database with a PASSIVE checkpoint, which waits for no reader or writer.
// Once the log holds `restartFrames` frames, a RESTART checkpoint follows it so that the log starts
// over. An error ends the thread; the store then checkpoints on commit again. Plain JavaScript so
// that it starts without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { path, intervalMs, restartFrames } = workerData;
// No busy timeout: SQLite's waits sleep for 1, 2, 5 … 100 ms between tries, and may miss every
// moment between the store's transactions; `restartLog` tries more often.
const db = new Database(path, { fileMustExist: true, timeout: 0 });
/** How long `restartLog` keeps trying, and how long it pauses between tries, in milliseconds. */
const RESTART_TRY_MS = 1_000;
const RESTART_PAUSE_MS = 0.2;
const pause = new Int32Array(new SharedArrayBuffer(4));
// No version seen yet: the first tick checkpoints what was committed before this thread started.
let seen;

const timer = setInterval(() => {
  const version = db.pragma('data_version', { simple: true });
  if (version === seen) return;
  const [{ log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)');
  // Frames a reader still needs stay behind; the next tick tries them again.
  if (checkpointed >= log) seen = version;
  if (log >= restartFrames) restartLog();
}, intervalMs);

/**
 * A log starts over only when a writer begins just after a checkpoint has caught up with every
 * commit. Under steady writes a PASSIVE checkpoint never does (the writer commits while it copies),
 * and the log grew without end: 1 GB after 14,000 creates, each read slower for it. A RESTART
 * checkpoint takes the write lock between two of the store's transactions, copies what came since
 * the PASSIVE one (a few milliseconds' worth) and waits for readers of the log, so that the next
 * commit starts it over; meanwhile the store's writes wait asynchronously (sqlite-driver.ts).
 */
function restartLog() {
  const until = Date.now() + RESTART_TRY_MS;
  while (db.pragma('wal_checkpoint(RESTART)')[0].busy && Date.now() < until) Atomics.wait(pause, 0, 0, RESTART_PAUSE_MS);
}

parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
