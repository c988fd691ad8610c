/**
 * @module
 * Worker-thread entry that compiles validators for {@link startValidatorsCompiler}: compiling
 * validators is the single largest step of a run, and it needs nothing but the
 * JSON Schema documents, so it runs here on the second core while the main thread prints
 * types, server stubs, clients and docs.
 *
 * One message in (`CompileRequest`), one message out (`CompileReply`) per job. A failure is
 * a reply too (`error`), never a crash: the main thread then compiles that job itself, so
 * a schema problem is reported exactly as without the worker.
 */
import { parentPort } from 'node:worker_threads';
import { compileStandalone } from '../emitters/validators/compile.js';
import type { CompileReply, CompileRequest } from './validators-prefetch.js';

const port = parentPort;
if (!port) throw new Error('validators-worker must run in a worker thread');

port.on('message', (request: CompileRequest) => {
  let reply: CompileReply;
  try {
    const documents = JSON.parse(request.documents) as Parameters<typeof compileStandalone>[0]['documents'];
    reply = { id: request.id, code: compileStandalone({ documents, exports: new Map(request.exports) }) };
  } catch (e) {
    reply = { id: request.id, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
});
