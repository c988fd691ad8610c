import { describe, expect, it } from 'vitest';
import { describeDatabase } from './issues.js';

describe('describeDatabase', () => {
  it('names the engine and hides a PostgreSQL password', () => {
    expect(describeDatabase('./data/loom.db')).toBe('SQLite ./data/loom.db');
    expect(describeDatabase('file:/var/lib/loom/loom.db')).toBe('SQLite /var/lib/loom/loom.db');
    expect(describeDatabase('postgres://loom:hunter2@db.internal:5432/loom')).toBe('PostgreSQL postgres://loom:***@db.internal:5432/loom');
    expect(describeDatabase('postgresql://postgres@127.0.0.1/test?schema=a')).toBe(
      'PostgreSQL postgresql://postgres@127.0.0.1/test?schema=a',
    );
  });
});
