/**
 * @module The floor under the Issues benchmark's `http_share`: the same handler functions served by
 * bare `node:http` — no Hono, no admission middleware, no decorator runtime, no validation — so
 * that a share can be read against what Node and the machine cost on their own. It serves the two
 * operations whose share sits nearest the goal, `get` and `create`, doing what the real handlers do
 * around the shared functions: the token lookup, `loadGetIssue` or `createIssueAndLoad`,
 * `renderIssue`, and writing the JSON with its length. Nothing else (no checks, no Gitea errors:
 * anything unexpected is a 500, which fails the benchmark).
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate } from '../runtime/issues/api/auth.js';
import { loadGetIssue } from '../runtime/issues/api/handlers/issue-read.js';
import { createIssueAndLoad } from '../runtime/issues/api/handlers/issue-write.js';
import type { IssuesServices } from '../runtime/issues/api/handlers/services.js';
import { renderIssue } from '../runtime/issues/api/render/issue.js';

const GET_ISSUE = /^\/api\/v1\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)$/;
const CREATE_ISSUE = /^\/api\/v1\/repos\/([^/]+)\/([^/]+)\/issues$/;

/** A running floor server. */
export interface FloorServer {
  readonly port: number;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

async function handle(s: IssuesServices, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '';
  const caller = await authenticate(s.store, undefined, undefined, req.headers.authorization);
  let match: RegExpExecArray | null;
  if (req.method === 'GET' && (match = GET_ISSUE.exec(url))) {
    const { issue, refs } = await loadGetIssue(s, caller, { owner: match[1]!, repo: match[2]!, index: Number(match[3]) });
    return sendJson(res, 200, renderIssue(issue, refs, caller?.user ?? null, s.config));
  }
  if (req.method === 'POST' && (match = CREATE_ISSUE.exec(url))) {
    const body = JSON.parse(await readBody(req)) as { title: string; body?: string };
    const { issue, refs } = await createIssueAndLoad(s, caller, { owner: match[1]!, repo: match[2]!, body });
    return sendJson(res, 201, renderIssue(issue, refs, caller!.user, s.config));
  }
  sendJson(res, 404, { message: 'not found' });
}

/**
 * Starts the floor server on a free port of 127.0.0.1.
 *
 * @example
 * const floor = await startFloorServer({ store, config, events });
 * const client = await HttpClient.connect(floor.port);
 */
export async function startFloorServer(services: IssuesServices): Promise<FloorServer> {
  const server = createServer((req, res) => {
    handle(services, req, res).catch((error: unknown) => sendJson(res, 500, { message: String(error) }));
  });
  // The benchmark's one connection must stay open however long a call between takes.
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
