/**
 * @module
 * Every registration mistake is reported when the class is registered, naming the class and method.
 */
import { describe, expect, it } from 'vitest';
import { Blocking, nodeRuntime } from '../../runtime/entries/rest/node.js';
import type { ResponseWriter as ResponseWriterType, ValueReader } from '../../runtime/rest/index.js';
import {
  BeanParam,
  BodyParam,
  Consumes,
  createRestRouter,
  DefaultValue,
  FormParam,
  GET,
  HEAD,
  Header,
  Path,
  PathParam,
  POST,
  QueryParam,
  RegistrationError,
  ResponseWriter,
  Returns,
  RouteOrder,
  Status,
  SuppressCheck,
  ValidateResult,
} from '../../runtime/rest/index.js';

// With the Node piece, so that the Node-only decorations are checked for what they say.
const node = nodeRuntime();
function registering(target: object): () => void {
  return () => createRestRouter({ node }).register(target);
}

class NotAResource {
  plain() {
    return 1;
  }
}
class NoPath {
  @GET get() {
    return 1;
  }
}
@Path('/x')
class UnknownVar {
  @GET @Path('/{id}') get(@PathParam('idx') id: string) {
    return id;
  }
}
@Path('/x')
class TwoBodies {
  @POST twice(@BodyParam() a: unknown, @BodyParam() b: unknown) {
    return [a, b];
  }
}
@Path('/x')
class ImplicitBodies {
  @POST twice(a: unknown, b: unknown) {
    return [a, b];
  }
}
@Path('/x')
class TwoSources {
  @GET get(@QueryParam('a') @PathParam('a') a: string) {
    return a;
  }
}
@Path('/x')
class TwoVerbs {
  @GET @POST get() {
    return 1;
  }
}
@Path('/x')
class BadRegex {
  @GET @Path('/{id:[0-9}') get() {
    return 1;
  }
}
@Path('/x')
class DuplicateVar {
  @GET @Path('/{id}/{id}') get() {
    return 1;
  }
}
@Path('/x')
class HeadBody {
  @HEAD head(@BodyParam() b: unknown) {
    return b;
  }
}
@Path('/x')
class FormAndBody {
  @POST post(@FormParam('a') a: string, @BodyParam() b: unknown) {
    return [a, b];
  }
}
@Path('/x')
class BadStatus {
  @GET @Status(42) get() {
    return 1;
  }
}
@Path('/x')
class BadHeader {
  @GET @Header('no colon here') get() {
    return 1;
  }
}
class EmptyBean {
  value?: string;
}
@Path('/x')
class BeanWithoutFields {
  @GET get(@BeanParam(EmptyBean) b: EmptyBean) {
    return b;
  }
}
class HalfBean {
  @DefaultValue('x') value?: string;
}
@Path('/x')
class BeanWithoutSource {
  @GET get(@BeanParam(HalfBean) b: HalfBean) {
    return b;
  }
}
@Path('/x')
class BadSchema {
  @POST post(@BodyParam({ schema: { type: 'nonsense' } }) b: unknown) {
    return b;
  }
}
@Path('/x')
class BadResultSchema {
  @GET @ValidateResult({ type: 'nonsense' }) get() {
    return 1;
  }
}

// biome-ignore lint/complexity/noStaticOnlyClass: a stand-in for a user's value class; the checks compare it by identity, as a type.
class Money {
  static fromString(s: string) {
    return s;
  }
}
class Other {}
const moneyReader: ValueReader = { type: Money, read: (s) => Money.fromString(s) };
@Path('/x')
class ReaderMismatch {
  @GET get(@QueryParam('m', { type: Other, reader: moneyReader }) m: unknown) {
    return m;
  }
}
@Path('/x')
class ReaderMismatchSuppressed {
  @GET @SuppressCheck() get(@QueryParam('m', { type: Other, reader: moneyReader }) m: unknown) {
    return m;
  }
}
@Path('/x')
class ReaderMatch {
  @GET get(@QueryParam('m', { type: Money, reader: moneyReader }) m: unknown) {
    return m;
  }
}
class Report {}
@Path('/x')
class WriterMismatch {
  @GET @Returns(Report) @ResponseWriter({ type: Money, write: String }) get() {
    return new Report();
  }
}
@Path('/x')
class WriterMismatchSuppressed {
  @GET @Returns(Report) @SuppressCheck() @ResponseWriter({ type: Money, write: String }) get() {
    return new Report();
  }
}
@Path('/x')
class Fine {
  @GET @Consumes('application/json') get() {
    return 1;
  }
}
@Path('/x')
class BadPattern {
  @GET get(@QueryParam('q', { pattern: '[' }) q: string) {
    return q;
  }
}
@Path('/x')
class UnknownType {
  @GET get(@QueryParam('n', { type: 'integr' as 'integer' }) n: number) {
    return n;
  }
}
@Path('/x')
class UnknownFormat {
  @GET get(@QueryParam('ip', { format: 'ipv4' }) ip: string) {
    return ip;
  }
}
@Path('/x')
class BadDefault {
  @GET get(@QueryParam('n', { type: 'integer' }) @DefaultValue('abc') n: number) {
    return n;
  }
}
@Path('/x')
class NaNOrder {
  @GET @RouteOrder(Number.NaN) get() {
    return 1;
  }
}
@Path('/x')
class RelativeBlocking {
  @GET @Blocking({ module: './fib.mjs', export: 'fib' }) get() {
    return 1;
  }
}

describe('registration errors', () => {
  const cases: [string, object, string][] = [
    [
      'a class without route methods',
      new NotAResource(),
      "NotAResource: no route methods (decorate a method with @GET, @POST, … or a shorthand such as @Get('/path'))",
    ],
    [
      'a verb without a path anywhere',
      new NoPath(),
      "NoPath.get: @GET has no path (put @Path on the class or the method, or use @Get('/path'))",
    ],
    [
      '@PathParam naming an unknown variable',
      new UnknownVar(),
      "UnknownVar.get parameter 0: @PathParam('idx') names no variable of the path (variables: id)",
    ],
    ['two body parameters', new TwoBodies(), 'TwoBodies.twice: more than one body parameter (parameters 0 and 1)'],
    [
      'two undecorated body parameters of a POST',
      new ImplicitBodies(),
      'ImplicitBodies.twice: more than one body parameter (parameters 0 and 1)',
    ],
    ['two source decorators on one parameter', new TwoSources(), 'TwoSources.get parameter 0: more than one source decorator'],
    ['two verbs on one method', new TwoVerbs(), 'TwoVerbs.get: more than one HTTP verb decorator'],
    [
      'a malformed regular expression',
      new BadRegex(),
      'BadRegex.get: bad regular expression "[0-9" for variable "id" in path "/x/{id:[0-9}"',
    ],
    ['a variable used twice', new DuplicateVar(), 'DuplicateVar.get: variable "id" appears twice in path "/x/{id}/{id}"'],
    ['a body on HEAD', new HeadBody(), 'HeadBody.head: a HEAD request carries no body, but parameter 0 reads it'],
    ['form and body parameters together', new FormAndBody(), 'FormAndBody.post: form parameters and a body parameter both read the body'],
    ['a status that is not HTTP', new BadStatus(), 'BadStatus.get: @Status(42) is not an HTTP status'],
    ['a header without a colon', new BadHeader(), "BadHeader.get: @Header('no colon here') must be written 'Name: value'"],
    [
      'a bean without decorated fields',
      new BeanWithoutFields(),
      'BeanWithoutFields.get parameter 0: @BeanParam(EmptyBean) has no decorated fields or constructor parameters',
    ],
    [
      'a bean field with a modifier but no source',
      new BeanWithoutSource(),
      'BeanWithoutSource.get parameter 0: bean HalfBean field value has modifiers but no source decorator',
    ],
    ['an invalid JSON Schema', new BadSchema(), 'BadSchema.post parameter 0: invalid JSON Schema:'],
    ['an invalid result schema', new BadResultSchema(), 'BadResultSchema.get: invalid result JSON Schema:'],
    [
      'a reader whose type does not fit the parameter',
      new ReaderMismatch(),
      'ReaderMismatch.get parameter 0: the parameter reader produces Money but the parameter is Other ' +
        '(add @SuppressCheck() to skip this check)',
    ],
    [
      'a writer whose type does not fit the result',
      new WriterMismatch(),
      'WriterMismatch.get: @ResponseWriter writes Money but the method returns Report (add @SuppressCheck() to skip this check)',
    ],
    ['a pattern that is no regular expression', new BadPattern(), 'BadPattern.get parameter 0: Invalid regular expression'],
    ['an unknown parameter type', new UnknownType(), 'UnknownType.get parameter 0: unknown parameter type "integr"'],
    [
      'an unknown format',
      new UnknownFormat(),
      'UnknownFormat.get parameter 0: unknown format "ipv4" (known: date, date-time, email, uuid, uri)',
    ],
    ['a default of the wrong type', new BadDefault(), 'BadDefault.get parameter 0: @DefaultValue("abc") must be an integer, got "abc"'],
    ['a route order that is not an integer', new NaNOrder(), 'NaNOrder.get: @RouteOrder(NaN) is not an integer'],
    [
      'a relative @Blocking module',
      new RelativeBlocking(),
      `RelativeBlocking.get: @Blocking module "./fib.mjs" is relative; pass new URL('./fib.mjs', import.meta.url) or an absolute path`,
    ],
  ];
  for (const [what, target, message] of cases) {
    it(`reports ${what}`, () => {
      expect(registering(target)).toThrow(RegistrationError);
      expect(registering(target)).toThrow(message);
    });
  }
  it('a not-found pattern without a handler, and credentials for any origin, are refused', () => {
    expect(() => createRestRouter().notFound('^/api')).toThrow('notFound(^/api): a pattern needs a handler');
    expect(() => createRestRouter().enableCors({ allowCredentials: true })).toThrow(
      "enableCors: allowCredentials needs the allowed origins (a list or a pattern), not '*'",
    );
  });
  it('classes with a private constructor are usable as reader, writer and result types', () => {
    // A compile-time check as much as a run-time one: `Class` types refused private constructors.
    class Cents {
      private constructor(readonly value: number) {}
      static fromString(s: string) {
        return new Cents(Number(s));
      }
    }
    @Path('/x')
    class Prices {
      @GET @Returns(Cents) get() {
        return Cents.fromString('5');
      }
    }
    const reader: ValueReader<Cents> = { read: (s) => Cents.fromString(s) };
    const writer: ResponseWriterType<Cents> = { type: Cents, write: (v) => String(v.value) };
    expect(() => createRestRouter().reader(Cents, reader).writer(Cents, writer).register(Prices).app()).not.toThrow();
  });
  it('@SuppressCheck skips the reader type check', () => {
    expect(registering(new ReaderMismatchSuppressed())).not.toThrow();
  });
  it('@SuppressCheck skips the writer type check', () => {
    expect(registering(new WriterMismatchSuppressed())).not.toThrow();
  });
  it('a reader whose type fits registers', () => {
    expect(registering(new ReaderMatch())).not.toThrow();
  });
  it('register() without arguments fails', () => {
    expect(() => createRestRouter().register()).toThrow('register() needs at least one class or instance');
  });
  it('a failed registration leaves the router usable', async () => {
    const router = createRestRouter();
    expect(() => router.register(new NoPath())).toThrow(RegistrationError);
    router.register(new Fine());
    const res = await router.app().request('/x');
    expect(await res.text()).toBe('1');
  });
});
