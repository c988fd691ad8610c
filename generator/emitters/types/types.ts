/**
 * @module
 * The `types` emitter: `X.types.ts` with one declaration per named type, in schema
 * declaration order — interfaces for messages/objects, `const` objects plus a union
 * type for enums, type aliases for the rest. Each block is rendered by a template
 * (`types/interface`, `types/enum`, `types/alias`) from a precomputed view model.
 */
import type { Emitter } from '../../emit.js';
import { assertNever } from '../../model/type-utils.js';
import { jsDocText } from '../../printer/generated-file.js';
import { hasDirectionalForms } from '../json-schema/index.js';
import { requestTypeName } from '../names.js';
import type { TypeRenderContext } from './render.js';
import { wellKnownType } from './render.js';
import { aliasView, enumView, generatedFrom, interfaceView } from './view.js';

/**
 * Emits `X.types.ts` for every schema file that declares types.
 *
 * @example
 * emit(files, [typesEmitter], options);
 * // system/v1alpha1/system.types.ts:
 * // export interface GetServiceRequest { name: string; }
 */
export const typesEmitter: Emitter = {
  name: 'types',
  emit(file, ctx) {
    if (file.types.length === 0) return;
    const f = ctx.newFile(ctx.outputPath(file, 'types.ts'), file);
    // Named types are what the server sends; the request forms of those that differ follow them.
    const render: TypeRenderContext = { f, file, typesPath: (other) => `/${ctx.outputPath(other, 'types.ts')}`, direction: 'response' };
    const request: TypeRenderContext = { ...render, direction: 'request' };
    const templates = ctx.options.templates;
    for (const type of file.types) {
      f.declare(type.localName);
      if (hasDirectionalForms(type)) f.declare(requestTypeName(type));
    }
    for (const type of file.types) {
      switch (type.kind) {
        case 'message':
          if (type.wellKnown) {
            // The JSON form of a well-known type is not an object with its proto fields.
            f.printBlock(
              templates.render('types/alias', {
                jsDoc: jsDocText(type.doc, [generatedFrom(type)]),
                name: type.localName,
                annotation: ` ${wellKnownType(type.wellKnown)}`,
              }),
            );
          } else {
            f.printBlock(templates.render('types/interface', interfaceView(type, render)));
            if (hasDirectionalForms(type)) {
              f.print();
              f.printBlock(templates.render('types/interface', interfaceView(type, request)));
            }
          }
          break;
        case 'enum':
          f.printBlock(templates.render('types/enum', enumView(type)));
          break;
        case 'alias':
          f.printBlock(templates.render('types/alias', aliasView(type, render)));
          if (hasDirectionalForms(type)) {
            f.print();
            f.printBlock(templates.render('types/alias', aliasView(type, request)));
          }
          break;
        default:
          assertNever(type);
      }
      f.print();
    }
  },
};
