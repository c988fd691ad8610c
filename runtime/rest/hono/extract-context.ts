/**
 * @module
 * `@Context` parameters: the built-in tokens, then the parameter's `@ContextReader`, the method's or
 * class's `@ContextReader` for that token, values pushed this request, the router's lazy providers,
 * and for string tokens Hono's `c.get(token)`.
 */

import { HONO_CONTEXT } from '../decorators/params.js';
import type { Violation } from '../errors.js';
import type { ParamSource, RawParam } from '../metadata/raw.js';
import type { ContextProvider } from '../types.js';
import type { Exchange } from './exchange.js';
import { PUSHED_KEY } from './exchange.js';
import type { Extractor, ParamPlan, ParamScope } from './extract.js';

/** Built-in context tokens. */
function builtin(token: unknown): Extractor | undefined {
  // The Hono context through the exchange, which then keeps what the method sets on it.
  if (token === HONO_CONTEXT) return (x) => x.honoContext();
  switch (token) {
    case 'request':
      return (x) => x.c.req.raw;
    case 'headers':
      return (x) => x.headers();
    case 'user':
      return (x) => x.user;
    case 'route':
      return (x) => x.route;
    case 'env':
      return (x) => x.c.env;
    default:
      return undefined;
  }
}

function callProvider(provider: ContextProvider, x: Exchange): unknown {
  return typeof provider === 'function' ? provider(x.c) : provider.provide(x.c);
}

/** A token for messages: a class's name, a symbol's description. */
export function tokenName(token: unknown): string {
  if (typeof token === 'function') return token.name;
  if (typeof token === 'symbol') return token.description ?? 'symbol';
  return String(token);
}

/** Compiles `@Context(token)`. */
export function contextPlan(param: RawParam, token: unknown, scope: ParamScope): ParamPlan {
  const hasDefault = param.hasDefault === true;
  const name = tokenName(token);
  const fallback = (violations: Violation[], value: unknown): unknown => {
    if (value !== undefined && value !== null) return value;
    if (hasDefault) return param.defaultValue;
    violations.push({ location: 'context', name, message: `Can't provide @Context of type: ${name}` });
    return undefined;
  };
  const settle = (violations: Violation[], value: unknown): unknown =>
    value instanceof Promise ? value.then((v) => fallback(violations, v)) : fallback(violations, value);

  const source: ParamSource = { kind: 'context', token };
  const fixed = builtin(token);
  // The parameter's own reader is explicit; a method's or class's provides only its own type, and
  // never replaces a built-in token (rest.vertx's @ContextReader).
  const reader = param.contextReader ?? (fixed ? undefined : scope.contextReaders?.get(token));
  if (reader) return { extract: (x, v) => settle(v, callProvider(reader, x)), source, needs: 'none', async: true };
  if (fixed) {
    if (token === 'user') return { extract: (x, v) => fallback(v, x.user), source, needs: 'none', async: false };
    return { extract: fixed, source, needs: 'none', async: false };
  }
  const state = scope.state;
  const extract: Extractor = (x, violations) => {
    const pushed = x.c.get(PUSHED_KEY) as Map<unknown, unknown> | undefined;
    if (pushed?.has(token)) return fallback(violations, pushed.get(token));
    const provider = state.providers.get(token);
    if (provider) {
      const cache = (x.contextCache ??= new Map());
      if (!cache.has(token)) cache.set(token, callProvider(provider, x));
      return settle(violations, cache.get(token));
    }
    // Any Hono variable: its type is the app's, unknown here.
    return fallback(violations, typeof token === 'string' ? x.c.get(token as never) : undefined);
  };
  return { extract, source, needs: 'none', async: true };
}
