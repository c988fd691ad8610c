#!/usr/bin/env node
// The `loom` executable inside this repository. It runs the toolkit's build
// (`packages/loom/`, built by `npm run build:toolkit`, which `npm ci` runs through `prepare`)
// when that build matches the sources byte for byte, and the TypeScript sources through tsx
// otherwise: a fresh clone, or a generator being edited, still works, only slower to start
// (tsx compiles every module at start). Stale compiled code is never run: see generator/cli/build.js.
// `LOOM_DIST=0` forces the sources (benchmarks compare both).
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { isDistFresh, PACKAGE_DIR } from '../generator/cli/build.js';

const root = new URL('..', import.meta.url);
if (process.env.LOOM_DIST !== '0' && isDistFresh(fileURLToPath(root))) {
  await import(new URL(`${PACKAGE_DIR}/bin/loom.js`, root).href);
} else {
  if (process.env.LOOM_DEBUG === '1') {
    process.stderr.write(
      'loom: packages/loom/dist is missing or older than the sources (npm run build:toolkit); running the TypeScript sources\n',
    );
  }
  // The optimization budget of packages/loom/bin/loom.js (see there for why).
  if (process.env.LOOM_V8_DEFAULTS !== '1') setFlagsFromString(`--interrupt-budget=${600 * 1024}`);
  const { register } = await import('tsx/esm/api');
  register();
  await import('../generator/cli/main.ts');
}
