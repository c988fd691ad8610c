/**
 * @module
 * The HTTP half of the `client` emitter: per OpenAPI service, an `OperationSpec`
 * constant per operation (how it goes on the wire) and a client class with one
 * method per operation taking the same input object as the handler interface,
 * plus a `…WithResponse` twin that also returns the `Response` (for headers
 * such as `X-Total-Count` and `Link`).
 */
import type { EmitContext } from '../../emit.js';
import type { HttpOperation, Service } from '../../model/model.js';
import { importSymbol } from '../../printer/generated-file.js';
import type { GeneratedFile } from '../../printer/generated-file.js';
import { jsDocText } from '../../printer/generated-file.js';
import { isFormMediaType, isJsonMediaType } from '../../model/media-types.js';
import { formDelimited, httpOperations, objectLiteralKey, operationDoc, successResponse } from './operation-view.js';
import type { TypeRenderContext } from '../types/render.js';
import { CLIENT } from '../runtime-symbols.js';
import { httpClientClassName, inputTypeName, operationSpecName } from '../names.js';
import { validatedBody } from './operation-view.js';
import { resultType, successBody, typeContext } from './bodies.js';

/** Prints the operation specs and client class of one HTTP service. */
export function printHttpClient(f: GeneratedFile, service: Service, ctx: EmitContext): void {
  const ops = httpOperations(service);
  const types = typeContext(f, service.parent, ctx);
  const OperationSpec = CLIENT.OperationSpec;
  const RequestOptions = CLIENT.RequestOptions;
  const basePath = service.parent.info.basePath.replace(/\/+$/, '');
  const specName = (op: HttpOperation) => f.declare(operationSpecName(op));

  for (const op of ops) {
    f.print('const ', specName(op), ': ', OperationSpec, ' = {');
    f.print('  name: ', f.string(op.localName), ',');
    f.print('  method: ', f.string(op.method.toUpperCase()), ',');
    f.print('  path: ', f.string(basePath + op.path), ',');
    if (op.parameters.length === 0) f.print('  params: [],');
    else {
      f.print('  params: [');
      for (const p of op.parameters) {
        const parts = [`name: ${f.string(p.name)}`, `key: ${f.string(p.localName)}`, `in: ${f.string(p.in)}`];
        // Only what differs from OpenAPI's defaults (form/explode for query and cookie, simple otherwise).
        const defaultStyle = p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple';
        const style = p.style ?? defaultStyle;
        if (style !== defaultStyle) parts.push(`style: ${f.string(style)}`);
        if (p.explode !== undefined && p.explode !== (style === 'form')) parts.push(`explode: ${p.explode}`);
        // `content: application/json`: the server reads the parameter as JSON text (`type: 'json'`).
        if (p.mediaType !== undefined && isJsonMediaType(p.mediaType)) parts.push('json: true');
        f.print('    { ', parts.join(', '), ' },');
      }
      f.print('  ],');
    }
    const body =
      op.requestBody && op.requestBody.contents.length > 0 ? (validatedBody(op) ?? op.requestBody.contents[0]!).mediaType : undefined;
    if (body !== undefined) f.print('  body: ', f.string(body), ',');
    const delimited = body !== undefined && isFormMediaType(body) ? formDelimited(op) : new Map<string, string>();
    if (delimited.size > 0) {
      const entries = [...delimited].map(([name, separator]) => `${objectLiteralKey(name, f)}: ${f.string(separator)}`);
      f.print('  delimited: { ', entries.join(', '), ' },');
    }
    const accept = [...new Set((successResponse(op)?.contents ?? []).map((c) => c.mediaType))];
    if (accept.length > 0) f.print('  accept: ', f.string(accept.join(', ')), ',');
    // Bytes whatever `Content-Type` the server answers with (`text/plain` for a raw file, say).
    if (successBody(op, types).binary) f.print('  binary: true,');
    f.print('};');
    f.print();
  }

  const cls = f.declare(httpClientClassName(service));
  const lower = service.localName.charAt(0).toLowerCase() + service.localName.slice(1);
  const view: HttpClientClassView = {
    jsDoc: jsDocText(`A typed fetch client for the ${service.name} operations. Non-2xx responses reject with \`ApiError\`.`, [
      '@example',
      `const ${lower} = new ${cls}({ baseUrl: 'http://localhost:3000', headers: { authorization: 'token …' } });`,
    ]),
    className: cls,
    httpClientType: f.text(CLIENT.HttpClient),
    optionsType: f.text(CLIENT.HttpClientOptions),
    httpClient: f.text(CLIENT.HttpClient),
    requestOptions: f.text(RequestOptions),
    apiResponse: f.text(CLIENT.ApiResponse),
    methods: ops.map((op) => {
      const declared = f.text(importSymbol(inputTypeName(op), `/${ctx.outputPath(service.parent, 'server.ts')}`, { typeOnly: true }));
      // Members the server defaults are required in the handler's input, optional to send.
      const defaulted = op.parameters.filter((p) => p.default !== undefined).map((p) => f.string(p.localName));
      const input = defaulted.length === 0 ? declared : f.text(CLIENT.Defaulted, '<', declared, ', ', defaulted.join(' | '), '>');
      const optional = op.parameters.every((p) => !p.required) && !(op.requestBody?.required ?? false);
      const tags = [`@generated from operation ${op.name} (${op.method.toUpperCase()} ${op.path})`];
      if (op.deprecated) tags.unshift('@deprecated');
      return {
        name: op.localName,
        jsDoc: jsDocText(operationDoc(op), tags, '  '),
        inputParam: optional ? `input: ${input} = {}` : `input: ${input}`,
        result: clientResultType(op, types, '  '),
        resultInBody: clientResultType(op, types, '    '),
        spec: operationSpecName(op),
        withResponseDoc: jsDocText(
          `Like {@link ${cls}.${op.localName}}, resolving to \`{ data, response }\` for the status and headers.`,
          [],
          '  ',
        ),
      };
    }),
  };
  f.printBlock(ctx.options.templates.render('client/http-client-class', view));
  f.print();
}

/**
 * What the fetch client resolves to: the success body, or `T | undefined` when another 2xx
 * answer has no body (`200` with a product, `204` when nothing changed) — the client then
 * resolves to `undefined`, and the type must say so.
 */
function clientResultType(op: HttpOperation, types: TypeRenderContext, indent: string): string {
  const result = resultType(op, types, indent);
  const emptySuccess = op.responses.some(
    (r) => (r.status === '2XX' || (typeof r.status === 'number' && r.status >= 200 && r.status < 300)) && r.contents.length === 0,
  );
  return result === 'void' || !emptySuccess ? result : `${result} | undefined`;
}

/** View model of `templates/client/http-client-class.hbs`: every string final, the template only loops. */
export interface HttpClientClassView {
  readonly jsDoc: string;
  readonly className: string;
  readonly httpClientType: string;
  readonly optionsType: string;
  readonly httpClient: string;
  readonly requestOptions: string;
  readonly apiResponse: string;
  /**
   * Per operation: `result` is the success type as the method's signature spells it, and
   * `resultInBody` the same type indented for the method's body (they differ for inline objects).
   */
  readonly methods: readonly {
    name: string;
    jsDoc: string;
    inputParam: string;
    result: string;
    resultInBody: string;
    spec: string;
    withResponseDoc: string;
  }[];
}
