/**
 * @module
 * Types of `build.js` (plain JavaScript so that it runs before anything is compiled).
 */

/** The toolkit package's folder, relative to the repository root (`packages/loom`). */
export declare const PACKAGE_DIR: string;

/** Name of the stamp file inside a build. */
export declare const STAMP_FILE: string;

/** File name, in the built `templates/` folder, of the precompiled built-in templates. */
export declare const PRECOMPILED_TEMPLATES: string;

/** The bundled `loom` command, relative to the build folder (`cli/loom.js`). */
export declare const CLI_BUNDLE: string;

/** The Handlebars options every Loom template is compiled with. */
export declare const TEMPLATE_OPTIONS: Readonly<{ noEscape: true; strict: true }>;

/** Source folders of the toolkit under the repository root. */
export declare const TOOLKIT_SOURCES: readonly string[];

/**
 * SHA-256 over the toolkit's sources, the tsconfig files and the package's manifest.
 *
 * @example
 * sourceDigest('/repo'); // '12950b91…'
 */
export declare function sourceDigest(root: string): string;

/**
 * True when `dist` (`<root>/packages/loom/dist` by default) was built from exactly the sources now in the repository.
 *
 * @example
 * if (isDistFresh(root)) await import('../packages/loom/bin/loom.js');
 */
export declare function isDistFresh(root: string, dist?: string): boolean;

/**
 * Compiles the toolkit into `dist` (`<root>/packages/loom/dist` by default) and stamps it.
 *
 * @example
 * build('/repo'); // what `npm run build:toolkit` does
 */
export declare function build(root: string, dist?: string): void;

/**
 * Precompiles `<root>/templates/**\/*.hbs` into `<dist>/templates/precompiled.cjs`.
 *
 * @example
 * precompileTemplates('/repo', '/repo/packages/loom/dist'); // part of build()
 */
export declare function precompileTemplates(root: string, dist: string): void;

/**
 * Bundles the compiled CLI (`<dist>/generator/cli/main.js` and its validators worker) into `<dist>/cli/`.
 *
 * @example
 * bundleCli('/repo', '/repo/packages/loom/dist'); // part of build()
 */
export declare function bundleCli(root: string, dist: string): void;
