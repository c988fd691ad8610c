/**
 * @module
 * The text of what the scaffolder adds: a method that has the contract's exact signature and the
 * schema's description, and that fails clearly until someone writes it (HTTP 501 through
 * `HttpError`, `unimplemented` through `RpcError`, which Connect answers with 501 and gRPC with
 * status 12); and a new handler file for a service nothing implements yet.
 */
import type { Contract, ContractMethod, TypeText } from './contracts.js';
import type { ImportPlanner } from './imports.js';
import { type Layout, quoted } from './text.js';

/** The most a line of an added signature holds before its parameters go one a line. */
const LINE_WIDTH = 140;

/**
 * A method of a contract as a class member, indented by `indent`, without a trailing newline.
 *
 * @example
 * renderMethod(contract, method, imports, layout, '  ');
 * // /**
 * //  * Get an issue's labels
 * //  *
 * //  * Serves operation issueGetLabels (GET /repos/{owner}/{repo}/issues/{index}/labels).
 * //  *\/
 * // async issueGetLabels(input: IssueGetLabelsInput, ctx: Context): Promise<HandlerResult<Label[]>> {
 * //   throw new HttpError(501, 'issueGetLabels is not implemented');
 * // }
 */
export function renderMethod(contract: Contract, method: ContractMethod, imports: ImportPlanner, layout: Layout, indent: string): string {
  const { eol, unit, quote, semi } = layout;
  const params = method.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${typeIn(p.type, imports)}`);
  const head = `${indent}${method.promise ? 'async ' : ''}${method.name}(`;
  const tail = `): ${typeIn(method.returns, imports)} {`;
  const oneLine = `${head}${params.join(', ')}${tail}`;
  const signature =
    oneLine.length <= LINE_WIDTH ? oneLine : `${head}${eol}${params.map((p) => `${indent}${unit}${p},${eol}`).join('')}${indent}${tail}`;
  const error = imports.ref(contract.error.target, contract.error.origin, 'value');
  const message = quoted(`${method.label} is not implemented`, quote);
  const body =
    contract.kind === 'http'
      ? `throw new ${error}(501, ${message})${semi}`
      : `throw new ${error}(${quoted('unimplemented', quote)}, ${message})${semi}`;
  return [...jsDoc(method, indent), signature, `${indent}${unit}${body}`, `${indent}}`].join(eol);
}

/**
 * A new file with a class that implements `contract`, every method a failing stub.
 *
 * @example
 * renderNewFile(contract, 'CommentHandlers', imports, layout);
 */
export function renderNewFile(contract: Contract, className: string, imports: ImportPlanner, layout: Layout): string {
  const { eol, unit } = layout;
  imports.reserve(className);
  const implemented = imports.ref(
    { kind: 'symbol', key: contract.key, module: contract.file, name: contract.name },
    { kind: 'file', path: contract.file, name: contract.name },
    'type',
  );
  const methods = contract.methods.map((m) => renderMethod(contract, m, imports, layout, unit));
  const what = contract.kind === 'http' ? 'the HTTP operations' : 'the RPCs';
  const lines = [
    '/**',
    ' * @module',
    ` * Implements ${what} of ${contract.from} (\`${contract.name}\`). Written by \`loom implement\`: each`,
    ' * method fails as not implemented until its body is written.',
    ' */',
    ...imports.declarations(),
    '',
    ...jsDoc({ doc: contract.doc, from: '' }, ''),
    `export class ${className} implements ${implemented} {`,
    methods.join(eol + eol),
    '}',
    '',
  ];
  return lines.join(eol);
}

/** A type's text with each name as the target file reaches it. */
function typeIn(type: TypeText, imports: ImportPlanner): string {
  let out = '';
  let from = 0;
  for (const ref of type.refs) {
    out += type.text.slice(from, ref.start) + imports.ref(ref.target, ref.origin, 'type');
    from = ref.end;
  }
  return out + type.text.slice(from);
}

/** The schema's description and what the method serves, as JSDoc lines. */
function jsDoc(source: { readonly doc: string | undefined; readonly from: string }, indent: string): string[] {
  const served = source.from === '' ? [] : [`Serves ${source.from}.`];
  const paragraphs = [...(source.doc === undefined ? [] : [source.doc]), ...served];
  if (paragraphs.length === 0) return [];
  const body = paragraphs
    .join('\n\n')
    .split(/\r?\n/)
    .map((line) => (line === '' ? `${indent} *` : `${indent} * ${line.replace(/\*\//g, '*\\/')}`));
  return [`${indent}/**`, ...body, `${indent} */`];
}
