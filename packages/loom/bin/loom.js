#!/usr/bin/env node
// The `loom` executable of the installed package: the generator, compiled to JavaScript and
// bundled by the package's build (`dist/cli/`, shipped in the tarball; nothing is built on the
// user's side).
import { setFlagsFromString } from 'node:v8';

// A run lasts a second or two. With V8's default budget its optimizing compiler starts on
// functions after little use and compiles many (ajv's code generator above all) on background
// threads, which on a 2-core machine compete with the generator's own two threads for longer
// than the optimized code then saves. Optimizing only what stays hot (a budget ~4.5 times V8's
// default) cut the CPU of `loom generate` on Gitea's API by about a quarter; long runs and
// `--watch` still get their hot code optimized. `LOOM_V8_DEFAULTS=1` keeps V8's defaults.
if (process.env.LOOM_V8_DEFAULTS !== '1') setFlagsFromString(`--interrupt-budget=${600 * 1024}`);

await import('../dist/cli/loom.js');
