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
