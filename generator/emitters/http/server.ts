/**
 * @module
 * The HTTP half of the `server` emitter (contracts.md §3): per OpenAPI service,
 * the `IssueApi` handler interface, one `…Input` interface per operation, and
 * the `IssueRoutes` class that binds the interface to routes through Loom's
 * decorators, with each parameter's type and constraints spelled out.
 */
import type { EmitContext } from '../../emit.js';
import { isFormMediaType, isJsonMediaType } from '../../model/media-types.js';
import type { HttpOperation, SecurityRequirement, Service } from '../../model/model.js';
import type { GeneratedFile, ImportSymbol, Printable } from '../../printer/generated-file.js';
import { importSymbol, jsDocText } from '../../printer/generated-file.js';
import { tsLiteral } from '../../printer/literal.js';
import { bodyValidatorName, handlerInterfaceName, inputTypeName, paramValidatorName, routesClassName } from '../names.js';
import { PARAM_DECORATOR, REST, VERB_DECORATOR } from '../runtime-symbols.js';
import type { TypeRenderContext } from '../types/render.js';
import { optionalPropertyType, renderType } from '../types/render.js';
import { bodyType, resultType, typeContext } from './bodies.js';
import {
  formDelimited,
  formFields,
  httpOperations,
  objectLiteralKey,
  operationDoc,
  paramOptions,
  printFormFields,
  printOptions,
  successResponse,
  validatedBody,
} from './operation-view.js';

/** Prints the handler interface, input interfaces and routes class of one HTTP service. */
export function printHttpService(f: GeneratedFile, service: Service, ctx: EmitContext): void {
  const ops = httpOperations(service);
  const types = typeContext(f, service.parent, ctx);
  const Context = REST.Context;
  const HandlerResult = REST.HandlerResult;
  const api = f.declare(handlerInterfaceName(service));

  f.jsDoc(service.doc ?? `What a hand-written ${service.name} handler implements.`, { tags: [`@generated from tag ${service.name}`] });
  f.print('export interface ', api, ' {');
  for (const op of ops) {
    f.jsDoc(operationDoc(op), { indent: '  ', tags: operationTags(op) });
    f.print(
      '  ',
      op.localName,
      '(input: ',
      inputTypeName(op),
      ', ctx: ',
      typeOnly(Context),
      '): Promise<',
      HandlerResult,
      '<',
      resultType(op, types, '  '),
      '>>;',
    );
  }
  f.print('}');
  f.print();

  for (const op of ops) {
    f.jsDoc(`Input of {@link ${api}.${op.localName}}.`);
    f.print('export interface ', f.declare(inputTypeName(op)), ' {');
    // Optional members say `| undefined` too: the routes class passes every parameter, set or not,
    // which `exactOptionalPropertyTypes` accepts only then.
    // A parameter with a default always arrives: the routes class fills it in.
    for (const p of op.parameters) {
      const tags = [
        ...(p.deprecated ? ['@deprecated'] : []),
        ...(p.default !== undefined ? [`@default ${JSON.stringify(p.default)}`] : []),
      ];
      const arrives = p.required || p.default !== undefined;
      f.jsDoc(p.doc, { indent: '  ', tags });
      f.print(
        '  ',
        f.propertyKey(p.localName),
        arrives ? ': ' : '?: ',
        optionalMemberType(p.localName, renderType(p.type, types, '  '), !arrives),
        ';',
      );
    }
    const body = bodyType(op, types, '  ');
    if (body !== undefined) {
      f.jsDoc(op.requestBody?.doc, { indent: '  ' });
      f.print('  body', op.requestBody!.required ? ': ' : '?: ', optionalMemberType('body', body, !op.requestBody!.required), ';');
    }
    f.print('}');
    f.print();
  }

  const basePath = service.parent.info.basePath.replace(/\/+$/, '');
  const view: RoutesClassView = {
    jsDoc: jsDocText(`Binds an implementation of ${api} to HTTP routes through Loom's decorators.`, [
      '@example',
      `createRestRouter().register(new ${routesClassName(service)}(new ${service.localName}Handler()));`,
    ]),
    basePathDecorator: basePath === '' ? '' : f.text('@', REST.Path, '(', f.string(basePath), ')'),
    className: f.declare(routesClassName(service)),
    apiName: api,
    methods: ops.map((op) => routeMethodView(f, op, types, ctx, Context, HandlerResult)),
  };
  f.printBlock(ctx.options.templates.render('server/routes-class', view));
  f.print();
}

/** View model of `templates/server/routes-class.hbs`: every string final, the template only loops. */
export interface RoutesClassView {
  readonly jsDoc: string;
  /** `@Path('/api/v1')`, or empty. */
  readonly basePathDecorator: string;
  readonly className: string;
  readonly apiName: string;
  readonly methods: readonly RouteMethodView[];
}

export interface RouteMethodView {
  readonly name: string;
  /** `@GET`, `@Path('/x')`, `@Produces('application/json')`, `@Status(200)`. */
  readonly decorators: readonly string[];
  /** Decorated parameters, without the trailing comma. */
  readonly params: readonly string[];
  readonly returnType: string;
  /** `{ owner, repo, body }` */
  readonly inputObject: string;
}

function routeMethodView(
  f: GeneratedFile,
  op: HttpOperation,
  types: TypeRenderContext,
  ctx: EmitContext,
  Context: ImportSymbol,
  HandlerResult: ImportSymbol,
): RouteMethodView {
  const decorators = [f.text('@', VERB_DECORATOR[op.method]), f.text('@', REST.Path, '(', f.string(op.path), ')')];
  const consumes = unique((op.requestBody?.contents ?? []).map((c) => c.mediaType));
  if (consumes.length > 0) decorators.push(f.text('@', REST.Consumes, '(', consumes.map((m) => f.string(m)).join(', '), ')'));
  const success = successResponse(op);
  const produces = unique((success?.contents ?? []).map((c) => c.mediaType));
  if (produces.length > 0) decorators.push(f.text('@', REST.Produces, '(', produces.map((m) => f.string(m)).join(', '), ')'));
  if (success) decorators.push(f.text('@', REST.Status, '(', String(success.status), ')'));
  // What the route requires, for the runtime's authentication to read (`route.security`).
  if (op.security && op.security.length > 0) decorators.push(f.text('@', REST.Security, '(', securityLiteral(op.security, f), ')'));
  const names: string[] = [];
  const params: string[] = [];
  const validators = `/${ctx.outputPath(op.parent.parent, 'validators.ts')}`;
  for (const p of op.parameters) {
    names.push(p.localName);
    const tsType = renderType(p.type, types, '    ');
    const validator = paramValidatorName(op, p);
    const options = paramOptions(p, validator === undefined ? undefined : importSymbol(validator, validators));
    const fallback = p.default === undefined ? '' : f.text('@', REST.DefaultValue, '(', tsLiteral(p.default, '    '), ') ');
    const arrives = p.required || p.default !== undefined;
    params.push(
      f.text(
        '@',
        PARAM_DECORATOR[p.in],
        '(',
        f.string(p.name),
        ', ',
        printOptions(options, f),
        ') ',
        fallback,
        p.localName,
        ': ',
        arrives ? tsType : `${tsType} | undefined`,
      ),
    );
  }
  const body = bodyType(op, types, '    ');
  if (body !== undefined) {
    names.push('body');
    const options: Record<string, Printable> = {};
    const validator = bodyValidatorName(op);
    const form = takesForm(op);
    if (validator && (isJsonBody(op) || form)) {
      options['validate'] = importSymbol(validator, validators);
    }
    options['required'] = op.requestBody!.required;
    // Form fields arrive as text and files: `formBody` converts them to the body's types before
    // the validator runs. Its fields come from the schema the handler's `body` type is printed from.
    const bodyOptions = form
      ? f.text(
          REST.formBody,
          '(',
          printFormFields(formFields(validatedBody(op)?.type ?? { kind: 'unknown' }, formDelimited(op)), f),
          ', ',
          printOptions(options, f),
          ')',
        )
      : printOptions(options, f);
    params.push(f.text('@', REST.BodyParam, '(', bodyOptions, ') body: ', op.requestBody!.required ? body : `${body} | undefined`));
  }
  params.push(f.text('@', Context, '() ctx: ', typeOnly(Context)));
  return {
    name: op.localName,
    decorators,
    params,
    returnType: f.text('Promise<', HandlerResult, '<', resultType(op, types, '  '), '>>'),
    inputObject: names.length === 0 ? '{}' : `{ ${names.join(', ')} }`,
  };
}

/** The same symbol, used in a type position (keeps the value import when also used as a value). */
function typeOnly(symbol: ImportSymbol): ImportSymbol {
  return { ...symbol, typeOnly: true };
}

function operationTags(op: HttpOperation): string[] {
  const tags = [`@generated from operation ${op.name} (${op.method.toUpperCase()} ${op.path})`];
  if (op.deprecated) tags.unshift('@deprecated');
  return tags;
}

/** True when the operation accepts a url-encoded or multipart body. */
function takesForm(op: HttpOperation): boolean {
  return (op.requestBody?.contents ?? []).some((c) => isFormMediaType(c.mediaType));
}

/** JSON bodies get the generated validator as it is; form bodies get it after `formBody`'s conversion. */
function isJsonBody(op: HttpOperation): boolean {
  const content = validatedBody(op);
  return content !== undefined && isJsonMediaType(content.mediaType);
}

/**
 * The type of an optional member: `T | undefined`, so that passing a parameter that was not sent
 * compiles with `exactOptionalPropertyTypes`. A member named like one of `Object.prototype`'s
 * (`valueOf`, `constructor`, …) is that member's type too when optional: every object has it, and
 * TypeScript checks an object literal without the property against it (see `types/render.ts`).
 */
function optionalMemberType(name: string, type: string, optional: boolean): string {
  return optional ? `${optionalPropertyType(name, type)} | undefined` : type;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** `[{ BasicAuth: [] }, { OAuth: ['repo'] }]`: requirements as the `@Security` decorator takes them. */
function securityLiteral(requirements: readonly SecurityRequirement[], f: GeneratedFile): string {
  const requirement = (r: SecurityRequirement) => {
    const entries = Object.entries(r.schemes).map(
      ([name, scopes]) => `${objectLiteralKey(name, f)}: [${scopes.map((s) => f.string(s)).join(', ')}]`,
    );
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  };
  return `[${requirements.map(requirement).join(', ')}]`;
}
