/**
 * @module
 * `--help` text, rendered from the option table so it lists every option with its
 * flag, environment variable and default.
 */
import { OPTIONS, type OptionSpec } from './options.js';

/**
 * The full `--help` text.
 *
 * @example
 * ```ts
 * process.stdout.write(renderHelp('npm start --'));
 * ```
 */
export function renderHelp(command = 'loom-server'): string {
  const rows = OPTIONS.map((spec) => [usage(spec), spec.description, details(spec)] as const);
  const width = Math.max(...rows.map(([flag]) => flag.length));
  const lines = [
    `Usage: ${command} [options]`,
    '',
    'Runs the Loom server: the Issues API and the System service (Connect on the HTTP port,',
    'gRPC on its own port), API docs at /docs, health checks at /healthz and /readyz.',
    'Flags win over environment variables, which win over defaults.',
    '',
    'Options:',
    ...rows.map(([flag, description, detail]) => `  ${flag.padEnd(width)}  ${description}\n  ${' '.repeat(width)}  ${detail}`),
    `  ${'-h, --help'.padEnd(width)}  Show this help and exit.`,
    `  ${'-v, --version'.padEnd(width)}  Print the version and exit.`,
    '',
    'Exit codes: 0 after a clean shutdown (SIGTERM/SIGINT), 1 when start-up fails, 2 for invalid configuration.',
    '',
  ];
  return lines.join('\n');
}

function usage(spec: OptionSpec): string {
  if (spec.flag === undefined) return `${spec.env}=…`;
  if (spec.kind === 'boolean') return `--[no-]${spec.flag}`;
  return `--${spec.flag} ${spec.placeholder ?? '<value>'}`;
}

function details(spec: OptionSpec): string {
  const parts = [`env ${spec.env}`];
  parts.push(spec.default === undefined ? 'default: unset' : `default: ${spec.default}`);
  if (spec.flag === undefined) parts.push('environment only');
  return `(${parts.join('; ')})`;
}
