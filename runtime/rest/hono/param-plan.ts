/**
 * @module
 * The parameter plan of a route: how each argument is read (decorated parameters as declared, the
 * others bound by name, xp-forge's way, wherever they stand), which of them read the body, and how
 * the body is admitted and read. The handler extracts the other parameters first and the body last.
 */
import type { RouterState } from '../config.js';
import { DUPLICATE_SOURCE } from '../decorators/params.js';
import { RegistrationError } from '../errors.js';
import type { DeclaredParameter, ResolvedClass, ResolvedMethod } from '../metadata/builder.js';
import { parameterList } from '../metadata/builder.js';
import type { ParamSource, RawParam } from '../metadata/raw.js';
import type { HttpVerb } from '../types.js';
import { compileBodyReader, compileFormReader, compileStreamReader, isPlainJsonRequest, readJson, readsPlainJson } from './body.js';
import { checkLimit, compileBodyAdmission, DEFAULT_MAX_BODY_BYTES, tooLarge } from './body-limit.js';
import type { Exchange } from './exchange.js';
import type { Extractor, ParamPlan } from './extract.js';
import { compileParam } from './extract.js';
import type { RoutePlan } from './route-plan.js';
import { compileUploadReader } from './uploads.js';

/** How a route reads its arguments. */
export interface ParamsPlan {
  /** How each argument is read. */
  readonly plans: readonly ParamPlan[];
  /** One extractor per argument. */
  readonly extractors: readonly Extractor[];
  /** The arguments read before the body (path, query, headers, context…), in declaration order. */
  readonly early: readonly number[];
  /** Some of them may answer with a promise (a context provider, a reader). */
  readonly earlyAsync: boolean;
  /** The argument(s) that need the body: read after it. */
  readonly late: readonly number[];
  readonly lateAsync: boolean;
  /** Admits (size limit) and reads the body; `undefined` when nothing reads it. */
  readonly readBody: ((x: Exchange) => Promise<unknown>) | undefined;
  /** What `readBody` gives is the form (`x.form`), not the body (`x.body`). */
  readonly readsForm: boolean;
  /** A JSON request is read as plain JSON (no reader chosen; see `readsPlainJson` in `body.ts`). */
  readonly readsPlainJson: boolean;
  /** The route writes files to the upload folder, released once it answered. */
  readonly uploads: boolean;
}

/** Verbs whose requests carry no body to a Fetch-API server (a `Request` refuses one on GET and HEAD). */
const NO_BODY_VERBS: ReadonlySet<HttpVerb> = new Set(['GET', 'HEAD', 'TRACE']);
/** xp-forge: these verbs bind an undecorated parameter to the query, the others to the body. */
const QUERY_BY_NAME: ReadonlySet<HttpVerb> = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Compiles the parameters of a route. */
export function compileParamsPlan(cls: ResolvedClass, method: ResolvedMethod, route: RoutePlan, state: RouterState): ParamsPlan {
  const { where, verb, template } = route;
  // Decorated parameters form a sparse list: look at every index, holes included.
  let undecorated = false;
  for (let i = 0; i < method.arity; i++) if (method.params[i]?.source === undefined) undecorated = true;
  const declared: DeclaredParameter[] = undecorated
    ? parameterList((cls.cls as { prototype: Record<string, Function> }).prototype[method.name]!)
    : [];
  const plans: ParamPlan[] = [];
  for (let i = 0; i < method.arity; i++) {
    const raw: RawParam = method.params[i] ?? {};
    let source: ParamSource | undefined = raw.source;
    if (source?.kind === 'context' && source.token === DUPLICATE_SOURCE)
      throw new RegistrationError(`${where} parameter ${i}: more than one source decorator`);
    let options = raw.options;
    if (!source) {
      const name = declared[i]?.name;
      if (!name || !IDENTIFIER.test(name))
        throw new RegistrationError(`${where} parameter ${i}: no source decorator and no usable parameter name`);
      source = template.variables.includes(name)
        ? { kind: 'path', name }
        : QUERY_BY_NAME.has(verb)
          ? { kind: 'query', name }
          : { kind: 'body' };
      // xp-forge: a parameter without a default is required ("Missing argument" is a 400); one with a
      // default gets `undefined` when absent, so that JavaScript applies the default.
      if (options?.required === undefined && !declared[i]!.hasDefault) options = { ...options, required: true };
    }
    plans.push(
      compileParam(options === raw.options ? raw : { ...raw, options }, source, {
        where: `${where} parameter ${i}`,
        variables: template.variables,
        template,
        state,
        ...(route.reader ? { reader: route.reader } : {}),
        contextReaders: route.contextReaders,
        suppressCheck: route.suppressCheck,
      }),
    );
  }

  const reading = plans.map((p, i) => [p, i] as const).filter(([p]) => p.needs !== 'none');
  const bodies = reading.filter(([p]) => p.needs === 'body' || p.needs === 'stream');
  if (bodies.length > 1)
    throw new RegistrationError(`${where}: more than one body parameter (parameters ${bodies[0]![1]} and ${bodies[1]![1]})`);
  if (reading.length > 0 && NO_BODY_VERBS.has(verb)) {
    const at = reading[0]![1];
    throw new RegistrationError(
      verb === 'GET'
        ? `${where}: parameter ${at} reads the request body, which a GET request does not bring ` +
            "(the Fetch API's Request refuses one, so Hono's adapters drop it): read the data from the query, or answer POST"
        : `${where}: a ${verb} request carries no body, but parameter ${at} reads it`,
    );
  }
  if (bodies.length > 0 && reading.length > bodies.length)
    throw new RegistrationError(`${where}: form parameters and a body parameter both read the body`);

  const early: number[] = [];
  const late: number[] = [];
  for (let i = 0; i < plans.length; i++) (plans[i]!.needs === 'none' ? early : late).push(i);
  const body = bodies[0]?.[0];
  const plainJson = body?.needs === 'body' && readsPlainJson(body, route.consumes, state);
  return {
    plans,
    extractors: plans.map((p) => p.extract),
    early,
    earlyAsync: early.some((i) => plans[i]!.async),
    late,
    lateAsync: late.some((i) => plans[i]!.async),
    readBody:
      reading.length > 0
        ? compileBodyRead(
            reading.map(([p]) => p),
            plainJson,
            route,
            state,
          )
        : undefined,
    readsForm: reading.some(([p]) => p.needs === 'form' || p.needs === 'upload'),
    readsPlainJson: plainJson,
    uploads: reading.some(([p]) => p.needs === 'upload'),
  };
}

/**
 * Admits and reads the body for the parameters that need it (one body, or form fields): resolves to
 * what goes to `x.body` or, for forms, `x.form` (see {@link ParamsPlan.readsForm}).
 */
function compileBodyRead(
  reading: readonly ParamPlan[],
  plainJson: boolean,
  route: RoutePlan,
  state: RouterState,
): (x: Exchange) => Promise<unknown> {
  const consumes = route.consumes;
  const own = reading.map((p) => p.maxBytes).filter((n): n is number => n !== undefined);
  const limit = checkLimit(
    own.length > 0 ? Math.max(...own) : (state.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES),
    `${route.where}: maxBytes`,
  );
  const first = reading[0]!;
  if (first.needs === 'stream') {
    const read = compileStreamReader(consumes, limit);
    return async (x) => {
      admitDeclared(x, limit);
      return read(x);
    };
  }
  if (reading.some((p) => p.needs === 'upload')) {
    // The upload folder's own limits (per file, files, text fields) bound what is read; a
    // parameter's `maxBytes` bounds the request as a whole.
    const read = compileUploadReader(consumes, state.options.node!.uploads);
    const whole = own.length > 0 ? limit : Number.POSITIVE_INFINITY;
    return async (x) => {
      admitDeclared(x, whole);
      return read(x);
    };
  }
  const admit = compileBodyAdmission(limit);
  const read = first.needs === 'body' ? compileBodyReader(first, consumes, state) : compileFormReader(consumes);
  if (!admit) return read;
  if (plainJson) {
    // The usual request, a JSON body of declared length within the limit, in one step: two header
    // lookups and the body's one promise, instead of admission, Content-Type check and reader choice
    // each on its own. Any other request takes those steps.
    return (x) => {
      if (isPlainJsonRequest(x, limit)) return readJson(x);
      const buffering = admit(x);
      return buffering ? buffering.then(() => read(x)) : read(x);
    };
  }
  // Not async: a body of declared length (the usual request) is read with the reader's one promise.
  return (x) => {
    const buffering = admit(x);
    return buffering ? buffering.then(() => read(x)) : read(x);
  };
}

/** For bodies read as they stream: only a declared length is checked up front (the stream counts the rest). */
function admitDeclared(x: Exchange, limit: number): void {
  if (limit === Number.POSITIVE_INFINITY) return;
  const length = x.contentLength();
  if (length !== undefined && Number(length) > limit) throw tooLarge(limit);
}
