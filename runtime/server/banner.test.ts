import { describe, expect, it } from 'vitest';
import { renderBanner } from './banner.js';

describe('renderBanner', () => {
  it('aligns the facts and lists the example calls', () => {
    const text = renderBanner({
      http: 'http://localhost:3000',
      docs: 'http://localhost:3000/docs',
      services: ['issues', 'system'],
      endpoints: { gRPC: '127.0.0.1:50051' },
      facts: { Database: 'SQLite ./data/loom.db', 'Host adapter': 'simulated' },
      examples: ["curl 'http://localhost:3000/api/v1/repos/issues/search?limit=5'"],
    });
    expect(text.split('\n')).toEqual([
      '',
      'Loom is running: issues, system',
      '  HTTP          http://localhost:3000',
      '  API docs      http://localhost:3000/docs',
      '  Health        http://localhost:3000/healthz  http://localhost:3000/readyz',
      '  gRPC          127.0.0.1:50051',
      '  Database      SQLite ./data/loom.db',
      '  Host adapter  simulated',
      '',
      'Try:',
      "  curl 'http://localhost:3000/api/v1/repos/issues/search?limit=5'",
      '',
      'Stop with Ctrl-C (in-flight requests finish first).',
      '',
    ]);
  });
});
