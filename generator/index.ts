/**
 * @module
 * Loom's generator as a library: load schemas into the model, run emitters, get
 * files back in memory. The `loom` CLI is a thin shell around these.
 *
 * @example
 * import { BUILTIN_EMITTERS, emit, loadSchemas, loadTemplates } from 'loom/generator';
 * const files = await loadSchemas(['schemas'], { root: 'schemas' });
 * const { files: out } = emit(files, BUILTIN_EMITTERS, { runtimeImport: 'loom', templates: loadTemplates() });
 */

export {
  type EmitContext,
  type EmitResult,
  type Emitter,
  emit,
  GENERATOR_NAME,
  GENERATOR_VERSION,
  type GeneratorOptions,
  type OutputFile,
  withDependencies,
} from './emit.js';
export { BUILTIN_EMITTERS } from './emitters/index.js';
export {
  formatDiagnostic,
  formatLocation,
  type LoadOptions,
  loadSchemas,
  memoryFileSystem,
  NODE_FILE_SYSTEM,
  SchemaError,
  type SchemaFileSystem,
} from './loaders/index.js';
export type * from './model/model.js';
export { GeneratedFile, type ImportSymbol, importSymbol, isIdentifier, type Printable, stringLiteral } from './printer/generated-file.js';
export { BUILTIN_TEMPLATES_DIR, loadTemplates, type Templates } from './templates.js';
