/**
 * @module
 * Types of `build.js` (plain JavaScript so that it runs before anything is compiled).
 */

/** Name of the stamp file inside `dist/`. */
export declare const STAMP_FILE: string;

/**
 * SHA-256 over the generator's sources (`generator/**\/*.ts` except tests), the templates and the tsconfig files.
 *
 * @example
 * sourceDigest('/repo'); // '12950b91…'
 */
export declare function sourceDigest(root: string): string;

/**
 * True when `<root>/dist` was built from exactly the sources now in `<root>/generator`.
 *
 * @example
 * if (isDistFresh(root)) await import('../dist/cli/main.js');
 */
export declare function isDistFresh(root: string): boolean;

/**
 * Compiles `<root>/generator` into `<root>/dist` and stamps it.
 *
 * @example
 * build('/repo'); // what `npm run build` does
 */
export declare function build(root: string): void;

/** File name, inside `dist/`, of the precompiled built-in templates. */
export declare const PRECOMPILED_TEMPLATES: string;

/** The Handlebars options every Loom template is compiled with. */
export declare const TEMPLATE_OPTIONS: Readonly<{ noEscape: true; strict: true }>;

/**
 * Precompiles `<root>/templates/**\/*.hbs` into `<root>/dist/templates.precompiled.cjs`.
 *
 * @example
 * precompileTemplates('/repo'); // part of build()
 */
export declare function precompileTemplates(root: string): void;

/** The runtime entries generated code imports, as paths under `runtime/` (`codegen/server.ts`, `codegen/client.ts`). */
export declare const RUNTIME_ENTRIES: readonly string[];

/**
 * SHA-256 over the runtime's sources (`runtime/**\/*.ts` and `.js`, tests excluded).
 *
 * @example
 * runtimeDigest('/repo'); // '5c1e…'
 */
export declare function runtimeDigest(root: string): string;

/**
 * Compiles the runtime entries and what they import into `outDir` (`<root>/dist/runtime` by
 * default): JavaScript, `.d.ts` declarations and source maps, stamped with {@link runtimeDigest}.
 *
 * @example
 * buildRuntime('/repo'); // part of build(): dist/runtime/codegen/server.js, server.d.ts, …
 */
export declare function buildRuntime(root: string, outDir?: string): void;

/**
 * True when `dir` (`<root>/dist/runtime` by default) holds a runtime build of the runtime sources now on disk.
 *
 * @example
 * if (!isRuntimeBuildFresh(root)) buildRuntime(root);
 */
export declare function isRuntimeBuildFresh(root: string, dir?: string): boolean;
