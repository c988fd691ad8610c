#!/usr/bin/env node
// The `loom` executable. It runs the generator compiled to plain JavaScript (`dist/`, built by
// `npm run build`, which `npm ci` runs through `prepare`) when that build matches the sources
// in `generator/` byte for byte, and the TypeScript sources through tsx otherwise: a fresh
// clone, or a generator being edited, still works, only slower to start (tsx costs ~0.3 s
// of a ~1 s run). Stale compiled code is never run: see generator/cli/build.js.
// `LOOM_DIST=0` forces the sources (benchmarks compare both).
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { isDistFresh } from '../generator/cli/build.js';

// A run lasts a second or two. With V8's default budget its optimizing compiler starts on
// functions after little use and compiles many (ajv's code generator above all) on background
// threads, which on a 2-core machine compete with the generator's own two threads for longer
// than the optimized code then saves. Optimizing only what stays hot (a budget ~4.5 times V8's
// default) cut the CPU of `loom generate` on Gitea's API by about a quarter; long runs and
// `--watch` still get their hot code optimized. `LOOM_V8_DEFAULTS=1` keeps V8's defaults.
if (process.env.LOOM_V8_DEFAULTS !== '1') setFlagsFromString(`--interrupt-budget=${600 * 1024}`);

const root = fileURLToPath(new URL('..', import.meta.url));
if (process.env.LOOM_DIST !== '0' && isDistFresh(root)) {
  // Stack traces of LOOM_DEBUG=1 point into the TypeScript sources.
  if (process.env.LOOM_DEBUG === '1') process.setSourceMapsEnabled(true);
  await import('../dist/cli/main.js');
} else {
  if (process.env.LOOM_DEBUG === '1')
    process.stderr.write('loom: dist/ is missing or older than generator/ (npm run build); running the TypeScript sources\n');
  const { register } = await import('tsx/esm/api');
  register();
  await import('../generator/cli/main.ts');
}
