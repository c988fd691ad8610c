/**
 * @module The part of `pg` the PostgreSQL engine calls, declared here (as Kysely does) so the rest
 * of the store never depends on the driver's types.
 */

/** A query result: only the rows and the changed-row count are read. */
export interface PostgresQueryResult {
  readonly rows: unknown[];
  readonly rowCount: number | null;
}

/** A named statement: prepared once per connection, then executed by name. */
export interface PostgresNamedQuery {
  readonly name: string;
  readonly text: string;
  readonly values: unknown[];
}

/** A connection checked out of the pool. */
export interface PostgresPoolClient {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  query(statement: PostgresNamedQuery): Promise<PostgresQueryResult>;
  release(error?: Error | boolean): void;
}

/** A connection pool. */
export interface PostgresPool {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  query(statement: PostgresNamedQuery): Promise<PostgresQueryResult>;
  connect(): Promise<PostgresPoolClient>;
  end(): Promise<void>;
}

/** Options of the PostgreSQL engine. */
export interface PostgresStoreConfig {
  /** `postgres://user@host:port/db`; a `schema` query parameter selects the schema too. */
  readonly url: string;
  /**
   * The schema the tables live in (created when missing), via `search_path`. Tests use one per run.
   * @default 'public'
   */
  readonly schema?: string;
  /** @default 10 */
  readonly poolSize?: number;
}
