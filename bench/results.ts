/**
 * @module
 * The shape every benchmark reports and the helpers to print and store it.
 * `npm run bench` writes all figures to `bench/results.json`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** One measured figure beside the baseline measured in the same run. */
export interface BenchResult {
  /** Dotted name, e.g. `generate.gitea_vs_fastest_peer`. */
  readonly name: string;
  readonly value: number;
  /** Unit of `value` and `baseline` (`ms`, `req/s`, `ratio`, ...). */
  readonly unit: string;
  readonly baseline: number;
  /** `value / baseline` unless the benchmark documents another definition. */
  readonly ratio: number;
}

/** Builds a result with `ratio = value / baseline`, rounded for reading. */
export function result(name: string, value: number, baseline: number, unit: string): BenchResult {
  return { name, value: round(value), unit, baseline: round(baseline), ratio: round(baseline === 0 ? 0 : value / baseline, 3) };
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Prints results as an aligned table. */
export function printResults(results: readonly BenchResult[]): void {
  const width = Math.max(...results.map((r) => r.name.length), 4);
  for (const r of results) {
    console.log(
      `${r.name.padEnd(width)}  ${String(r.value).padStart(10)} ${r.unit.padEnd(6)} baseline ${String(r.baseline).padStart(10)}  ` +
        `ratio ${r.ratio}`,
    );
  }
}

/**
 * Writes `results` to `path`. Figures of suites not run this time (`<suite>.…` names not in
 * `suites`) are kept from the file as it was, so `npm run bench -- rest` updates only `rest.*`.
 */
export function writeResults(path: string, results: readonly BenchResult[], suites: readonly string[]): void {
  let kept: BenchResult[] = [];
  try {
    const earlier = JSON.parse(readFileSync(path, 'utf8')) as BenchResult[];
    kept = earlier.filter((r) => !suites.includes(r.name.split('.')[0]!));
  } catch {
    // No earlier file (or not ours to read): only this run's figures.
  }
  writeFileSync(path, `${JSON.stringify([...kept, ...results], null, 2)}\n`);
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
