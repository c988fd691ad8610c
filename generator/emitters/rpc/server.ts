/**
 * @module
 * The RPC half of the `server` emitter: per proto service, the `SystemService`
 * interface a handler implements, the `SystemRoutes` class binding it to Connect
 * through the decorator runtime, and a plain binder for Connect on Hono, all over the
 * descriptor in `X.codec.ts`. The gRPC binder is in `X.grpc.ts` (`grpc.ts`), so that only
 * gRPC users load `@grpc/grpc-js`.
 */
import type { EmitContext } from '../../emit.js';
import type { Service } from '../../model/model.js';
import type { GeneratedFile, ImportSymbol, Printable } from '../../printer/generated-file.js';
import { jsDocText } from '../../printer/generated-file.js';
import { connectRoutesClassName, connectRoutesFunctionName, rpcServiceInterfaceName, serviceDescriptorName } from '../names.js';
import { CONNECT_SERVER, REST } from '../runtime-symbols.js';
import { globalTypeName } from '../types/render.js';
import { codecFileSymbol, messageTypeSymbol, rpcGeneratedFrom, rpcOperations, withArticle } from './service-view.js';

/** Prints the interface and binders of one RPC service. */
export function printRpcService(f: GeneratedFile, service: Service, ctx: EmitContext): void {
  const iface = f.declare(rpcServiceInterfaceName(service));
  const RpcContext = CONNECT_SERVER.RpcContext;
  const descriptor = codecFileSymbol(serviceDescriptorName(service), service.parent, ctx);
  // A message named `AsyncIterable` would shadow the global the streaming methods need.
  const asyncIterable = globalTypeName('AsyncIterable', service.parent);

  f.jsDoc(service.doc ?? `What a hand-written ${service.name} implementation provides; served over Connect and gRPC alike.`, {
    tags: [`@generated from service ${service.fullName}`],
  });
  f.print('export interface ', iface, ' {');
  for (const op of rpcOperations(service)) {
    const input: Printable = messageTypeSymbol(op.input, ctx);
    const output: Printable = messageTypeSymbol(op.output, ctx);
    const request: Printable = op.clientStreaming ? ['requests: ', asyncIterable, '<', input, '>'] : ['request: ', input];
    const result: Printable = op.serverStreaming ? [asyncIterable, '<', output, '>'] : ['Promise<', output, '>'];
    const tags = [rpcGeneratedFrom(op)];
    if (op.deprecated) tags.unshift('@deprecated');
    f.jsDoc(op.doc, { indent: '  ', tags });
    f.print('  ', op.localName, '(', request, ', ctx: ', RpcContext, '): ', result, ';');
  }
  f.print('}');
  f.print();

  printConnectRoutesClass(f, service, ctx, iface, descriptor);
  f.print();

  // The lean binding: one fetch handler per method, nothing looked up per request (what the
  // server mounts); the routes class above serves the same protocol through the decorators.
  f.jsDoc(
    [
      `Serves ${withArticle(iface)} over the Connect protocol (\`POST /${service.fullName}/<Method>\`, JSON and binary).`,
      "Mount the returned app with `app.route('/', …)`.",
    ].join('\n'),
    { tags: ['@example', `app.route('/', ${connectRoutesFunctionName(service)}(new ${service.localName}Handler()));`] },
  );
  f.print(
    'export function ',
    f.declare(connectRoutesFunctionName(service)),
    '(impl: ',
    iface,
    ', options?: ',
    CONNECT_SERVER.ConnectRoutesOptions,
    '): ',
    CONNECT_SERVER.ConnectApp,
    ' {',
  );
  f.print('  return ', CONNECT_SERVER.connectRoutes, '(', descriptor, ', impl, options);');
  f.print('}');
  f.print();
}

/** View model of `templates/server/connect-routes-class.hbs`: every string final, the template only loops. */
export interface ConnectRoutesClassView {
  readonly jsDoc: string;
  /** `@Path('/v1alpha1.System')`, `@CatchWith(CONNECT_ERRORS)`. */
  readonly classDecorators: readonly string[];
  readonly className: string;
  readonly apiName: string;
  readonly optionsType: string;
  readonly methods: readonly ConnectRouteMethodView[];
}

export interface ConnectRouteMethodView {
  /** Indented JSDoc, or empty. */
  readonly jsDoc: string;
  /** `@POST`, `@Path('/GetService')`, `@Consumes('application/json', 'application/proto')`. */
  readonly decorators: readonly string[];
  readonly name: string;
  /** Decorated parameters, without the trailing comma. */
  readonly params: readonly string[];
  readonly returnType: string;
  /** The statements of the method, one per line. */
  readonly body: readonly string[];
}

/**
 * The service as a routes class of Loom's decorator runtime: one `@POST` route per RPC at
 * `/<package>.<Service>/<Method>` taking JSON or binary, `authorize` before the body is read (the
 * message is read by `connectCall`, not a `@BodyParam`), and Connect's error shape for every failure;
 * streaming RPCs speak Connect's enveloped streams through `connectStream`.
 */
function printConnectRoutesClass(f: GeneratedFile, service: Service, ctx: EmitContext, iface: string, descriptor: Printable): void {
  const decorator = (symbol: ImportSymbol, ...args: Printable[]) => f.text('@', symbol, ...(args.length > 0 ? ['(', ...args, ')'] : []));
  const Context = REST.Context;
  const response = globalTypeName('Response', service.parent);
  const className = f.declare(connectRoutesClassName(service));
  const methods = rpcOperations(service).map((op): ConnectRouteMethodView => {
    const method = f.text(descriptor, '.methods.', op.localName);
    const streaming = op.clientStreaming || op.serverStreaming;
    const tags = [rpcGeneratedFrom(op)];
    if (op.deprecated) tags.unshift('@deprecated');
    return {
      jsDoc: jsDocText(op.doc, tags, '  '),
      decorators: [
        decorator(REST.POST),
        decorator(REST.Path, f.string(`/${op.name}`)),
        ...(streaming ? [] : [decorator(REST.Consumes, f.string('application/json'), ', ', f.string('application/proto'))]),
      ],
      name: op.localName,
      params: [f.text(decorator(REST.Context), '() ctx: ', Context)],
      returnType: streaming ? response : `Promise<${response}>`,
      body: [
        f.text('const method = ', method, ';'),
        streaming
          ? f.text(
              'return ',
              CONNECT_SERVER.connectStream,
              '(method, ctx, this.options, (input, rpc) => this.api.',
              op.localName,
              '(input, rpc));',
            )
          : f.text(
              'return ',
              CONNECT_SERVER.connectCall,
              '(method, ctx, this.options, (message, rpc) => this.api.',
              op.localName,
              '(message, rpc));',
            ),
      ],
    };
  });
  const view: ConnectRoutesClassView = {
    jsDoc: jsDocText(
      [
        `Binds ${withArticle(iface)} to Connect routes through Loom's decorators (\`POST /${service.fullName}/<Method>\`,`,
        `JSON and binary), to register on a \`RestRouter\` beside other routes classes and decorate further.`,
        `\`${service.localName.charAt(0).toLowerCase() + service.localName.slice(1)}ConnectRoutes\` ` +
          `serves the same protocol without the decorator runtime.`,
      ].join('\n'),
      ['@example', `createRestRouter().register(new ${className}(new ${service.localName}Handler()));`],
    ),
    classDecorators: [decorator(REST.Path, f.string(`/${service.fullName}`)), decorator(REST.CatchWith, CONNECT_SERVER.CONNECT_ERRORS)],
    className,
    apiName: iface,
    optionsType: f.text(CONNECT_SERVER.ConnectRoutesOptions),
    methods,
  };
  f.printBlock(ctx.options.templates.render('server/connect-routes-class', view));
}
