/**
 * @module
 * `npm run bench`: runs every benchmark, prints each figure beside the baseline
 * measured in the same run, and writes them all to `bench/results.json`.
 *
 * Select some with `npm run bench -- generate rest` (names: generate, implement, issues, package, reliability, rest, server,
 * system);
 * the file then keeps the other suites' figures from the last run that measured them.
 */
import { fileURLToPath } from 'node:url';
import { benchGenerate } from './generate.js';
import { benchImplement } from './implement.js';
import { benchIssues } from './issues.js';
import { benchPackage } from './package.js';
import { benchReliability } from './reliability.js';
import { benchRest } from './rest.js';
import { type BenchResult, printResults, writeResults } from './results.js';
import { benchServer } from './server.js';
import { benchSystem } from './system.js';

type Suite = (onProgress: (line: string) => void) => Promise<BenchResult[]>;

const SUITES: Record<string, Suite> = {
  generate: benchGenerate,
  implement: benchImplement,
  issues: benchIssues,
  package: benchPackage,
  reliability: benchReliability,
  rest: benchRest,
  server: benchServer,
  system: benchSystem,
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((name) => !(name in SUITES));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}
const names = wanted.length > 0 ? wanted : Object.keys(SUITES);
const all: BenchResult[] = [];
const started = Date.now();
for (const [i, name] of names.entries()) {
  console.log(`[${i + 1}/${names.length}] ${name}`);
  all.push(...(await SUITES[name]!((line) => console.log(line))));
}
console.log('');
printResults(all);
const out = fileURLToPath(new URL('results.json', import.meta.url));
writeResults(out, all, names);
console.log(`\n${all.length} figures in ${((Date.now() - started) / 1000).toFixed(1)} s, written to bench/results.json`);
