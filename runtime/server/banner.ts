/**
 * @module
 * What the server says once it is up: where it listens, what it is using (database,
 * host adapter) and calls to paste into a terminal. As text for a person, and as one
 * structured log record for log pipelines and for tests that start the server.
 */
import type { RunningServer } from './server.js';

/** The banner's content, independent of how it is shown. */
export interface BannerRecord {
  readonly http: string;
  readonly docs: string;
  readonly services: readonly string[];
  readonly endpoints: Readonly<Record<string, string>>;
  readonly facts: Readonly<Record<string, string>>;
  readonly examples: readonly string[];
}

/**
 * Collects the banner from a running server.
 *
 * @example
 * ```ts
 * logger.info(bannerRecord(server), 'ready');
 * ```
 */
export function bannerRecord(server: RunningServer): BannerRecord {
  const endpoints: Record<string, string> = {};
  for (const endpoint of server.endpoints) endpoints[endpoint.label] = endpoint.address;
  const facts: Record<string, string> = {};
  const examples: string[] = [];
  for (const module of server.modules) {
    const summary = module.summary(server.origin);
    for (const [label, value] of summary.facts) facts[label] = value;
    examples.push(...summary.examples);
  }
  return {
    http: server.origin,
    docs: `${server.origin}/docs`,
    services: server.modules.map((module) => module.name),
    endpoints,
    facts,
    examples,
  };
}

/**
 * The banner as lines for a terminal.
 *
 * @example
 * ```ts
 * process.stdout.write(renderBanner(bannerRecord(server)));
 * ```
 */
export function renderBanner(record: BannerRecord): string {
  const rows: [string, string][] = [
    ['HTTP', record.http],
    ['API docs', record.docs],
    ['Health', `${record.http}/healthz  ${record.http}/readyz`],
    ...Object.entries(record.endpoints),
    ...Object.entries(record.facts),
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = [
    '',
    `Loom is running: ${record.services.join(', ')}`,
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
  ];
  if (record.examples.length > 0) lines.push('', 'Try:', ...record.examples.map((example) => `  ${example}`));
  lines.push('', 'Stop with Ctrl-C (in-flight requests finish first).', '');
  return lines.join('\n');
}
