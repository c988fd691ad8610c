/**
 * @module
 * The to-do list behind the Todos API (`schemas/todos.yaml`): an in-memory store, enough to try
 * the generated routes and clients. Replace the map with your database; the method signatures
 * come from the generated `TodoApi`, so the compiler tells you when the schema changes.
 */
import { HttpError } from 'loom/rest';
import type { CreateTodoInput, DeleteTodoInput, GetTodoInput, ListTodosInput, TodoApi } from '../../generated/todos.server.js';
import type { Todo } from '../../generated/todos.types.js';

export class TodoHandler implements TodoApi {
  readonly #todos = new Map<number, Todo>();
  #nextId = 1;

  async listTodos(input: ListTodosInput): Promise<Todo[]> {
    const all = [...this.#todos.values()].reverse();
    return all.filter((todo) => input.done === undefined || todo.done === input.done).slice(0, input.limit);
  }

  async createTodo(input: CreateTodoInput): Promise<Todo> {
    const todo: Todo = { id: this.#nextId++, title: input.body.title, done: input.body.done ?? false, createdAt: new Date().toISOString() };
    this.#todos.set(todo.id, todo);
    return todo;
  }

  async getTodo(input: GetTodoInput): Promise<Todo> {
    const todo = this.#todos.get(input.id);
    if (!todo) throw new HttpError(404, `no to-do item ${input.id}`);
    return todo;
  }

  async deleteTodo(input: DeleteTodoInput): Promise<void> {
    if (!this.#todos.delete(input.id)) throw new HttpError(404, `no to-do item ${input.id}`);
  }
}
