/**
 * @module
 * `formBody` written by hand: typed form fields without a generated validator, fields it does not
 * list, a field named `__proto__`, and bodies of other types passing it by.
 */
import { describe, expect, it } from 'vitest';
import { formBody } from '../../runtime/entries/rest.js';
import { BodyParam, createRestRouter, Path, POST, QueryParam } from '../../runtime/rest/index.js';
import { call } from '../support/rest-answers.js';

const received: unknown[] = [];

@Path('/f')
class Forms {
  @POST
  @Path('/order')
  order(
    @QueryParam('page', { type: 'integer' }) page: number | undefined,
    @BodyParam(formBody({ qty: 'integer', gift: 'boolean', sizes: ['number'], ['__proto__']: 'integer' }, { required: true })) body: Record<
      string,
      unknown
    >,
  ) {
    received.push(body);
    return { page, keys: Object.keys(body) };
  }
}

const app = createRestRouter().register(new Forms()).app();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('formBody by hand', () => {
  it('converts the listed fields and keeps the others as sent, repeated ones as arrays', async () => {
    const r = await call(app, 'POST', '/f/order', { body: 'qty=2&gift=TRUE&sizes=1.5&note=hi&x=1&x=2', headers: FORM });
    expect(r.status).toBe(200);
    expect(received.at(-1)).toEqual({ qty: 2, gift: true, sizes: [1.5], note: 'hi', x: ['1', '2'] });
  });

  it('without a validator still answers 400 for values it cannot convert, with the other parameters', async () => {
    const r = await call(app, 'POST', '/f/order?page=x', { body: 'qty=two&sizes=1&sizes=big', headers: FORM });
    expect(r.status).toBe(400);
    expect(r.json()).toMatchObject({
      violations: [
        { location: 'query', name: 'page', message: 'must be an integer, got "x"' },
        { location: 'body', name: '/qty', message: 'must be an integer, got "two"' },
        { location: 'body', name: '/sizes/1', message: 'must be a number, got "big"' },
      ],
    });
  });

  it('an empty form is an absent body', async () => {
    const r = await call(app, 'POST', '/f/order', { body: '', headers: FORM });
    expect(r.json()).toMatchObject({ violations: [{ location: 'body', name: 'body', message: 'is required' }] });
  });

  it('a field named __proto__ is a field, not the prototype', async () => {
    const r = await call(app, 'POST', '/f/order', { body: '__proto__=5&qty=1', headers: FORM });
    expect(r.json()).toEqual({ keys: ['qty', '__proto__'] });
    const body = received.at(-1) as Record<string, unknown>;
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(body, '__proto__')?.value).toBe(5);
  });

  it('refuses an unknown field type where it is written; reads url-encoded text given directly', async () => {
    expect(() => formBody({ n: 'int' as never })).toThrow("formBody: field 'n' has unknown type 'int'");
    const reader = formBody({ n: 'integer', toString: ['string'] as const }).reader!;
    expect(await reader.read('n=1&toString=a', undefined as never)).toEqual({ n: 1, toString: ['a'] });
  });

  it('splits delimited arrays (csv, pipes, …) and converts each element, an empty field giving none', async () => {
    const reader = formBody({ ids: ['integer', ','], tags: ['string', '|'], none: ['integer', ','] }).reader!;
    expect(await reader.read('ids=1,2,3&tags=a|b&none=', undefined as never)).toEqual({ ids: [1, 2, 3], tags: ['a', 'b'], none: [] });
    // Sent repeated anyway: every field's elements, in order.
    expect(await reader.read('ids=1,2&ids=3', undefined as never)).toEqual({ ids: [1, 2, 3] });
    const checked = formBody({ ids: ['integer', ','] });
    const body = await checked.reader!.read('ids=1,x', undefined as never);
    expect(checked.validate!(body)).toBe(false);
    expect(checked.validate!.errors).toMatchObject([{ instancePath: '/ids/1', message: 'must be an integer, got "x"' }]);
    expect(() => formBody({ ids: ['integer', ';' as never] })).toThrow('formBody: field \'ids\' has unknown separator ";"');
  });

  it('leaves JSON bodies to the JSON reader', async () => {
    const r = await call(app, 'POST', '/f/order', { json: { qty: 'as sent' } });
    expect(r.status).toBe(200);
    expect(received.at(-1)).toEqual({ qty: 'as sent' });
  });
});
