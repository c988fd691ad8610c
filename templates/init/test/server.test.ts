/**
 * @module
 * The sample test: starts the server on free ports and calls it through the generated clients,
 * over HTTP, Connect and gRPC. `npm test` compiles, then runs it with Node's test runner.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ApiError } from 'loom/client';
import { RpcError } from 'loom/connect';
import { createEchoConnectClient } from '../generated/echo/v1/echo.client.js';
import { createEchoGrpcClient } from '../generated/echo/v1/echo.grpc.js';
import { TodoClient } from '../generated/todos.client.js';
import type { RunningServer } from '../src/server.js';
import { startServer } from '../src/server.js';

let server: RunningServer;
before(async () => {
  server = await startServer({ port: 0, grpcPort: 0 });
});
after(() => server.close());

test('the Todos API over HTTP', async () => {
  const todos = new TodoClient({ baseUrl: server.url });
  const created = await todos.createTodo({ body: { title: 'Write the handlers' } });
  assert.equal(created.done, false);
  assert.deepEqual(await todos.getTodo({ id: created.id }), created);
  assert.deepEqual(await todos.listTodos({ done: false }), [created]);
  await todos.deleteTodo({ id: created.id });
  await assert.rejects(todos.getTodo({ id: created.id }), (error) => error instanceof ApiError && error.status === 404);
  // The schema's rules hold before a handler runs: a title is required.
  await assert.rejects(todos.createTodo({ body: {} as never }), (error) => error instanceof ApiError && error.status === 400);
});

test('the Echo service over Connect and gRPC', async () => {
  const grpcClient = createEchoGrpcClient(server.grpcAddress);
  try {
    for (const echo of [createEchoConnectClient({ baseUrl: server.url }), grpcClient]) {
      assert.deepEqual(await echo.say({ sentence: 'hello' }), { sentence: 'hello' });
      const numbers: number[] = [];
      for await (const message of echo.count({ to: 3 })) numbers.push(message.number);
      assert.deepEqual(numbers, [1, 2, 3]);
      await assert.rejects(echo.say({ sentence: '' }), (error) => error instanceof RpcError && error.code === 'invalid_argument');
    }
  } finally {
    grpcClient.close();
  }
});
