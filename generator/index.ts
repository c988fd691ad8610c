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
export type * from './model/model.js';
export {
  loadSchemas,
  memoryFileSystem,
  NODE_FILE_SYSTEM,
  SchemaError,
  formatDiagnostic,
  formatLocation,
  type LoadOptions,
  type SchemaFileSystem,
} from './loaders/index.js';
export {
  emit,
  withDependencies,
  GENERATOR_NAME,
  GENERATOR_VERSION,
  type EmitContext,
  type Emitter,
  type EmitResult,
  type GeneratorOptions,
  type OutputFile,
} from './emit.js';
export { BUILTIN_EMITTERS } from './emitters/index.js';
export { GeneratedFile, importSymbol, isIdentifier, stringLiteral, type ImportSymbol, type Printable } from './printer/generated-file.js';
export { loadTemplates, BUILTIN_TEMPLATES_DIR, type Templates } from './templates.js';
