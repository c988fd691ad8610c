/**
 * @module
 * Unit tests of path template translation.
 */
import { describe, expect, it } from 'vitest';
import { joinPaths, toHonoPath } from './path.js';

describe('path templates', () => {
  it('joins parts with single slashes', () => {
    expect(joinPaths('/api/', '', undefined, '/users/', 'x')).toBe('/api/users/x');
    expect(joinPaths()).toBe('/');
  });
  it('translates every variable syntax to Hono', () => {
    expect(toHonoPath('/a/{x}/:y/{z:[0-9]+}/:w:[a-z]{2}').hono).toBe('/a/:x/:y/:z{[0-9]+}/:w{[a-z]{2}}');
  });
  it('lists variables in order', () => {
    expect(toHonoPath('/a/{x}/:y/{z:.+}').variables).toEqual(['x', 'y', 'z']);
  });
  it('keeps nested braces inside a regular expression', () => {
    expect(toHonoPath('/y/{year:[0-9]{4}}').hono).toBe('/y/:year{[0-9]{4}}');
  });
  it('rejects bad names, duplicates, unclosed braces and bad expressions', () => {
    expect(() => toHonoPath('/{a b}')).toThrow('bad variable name "a b" in path "/{a b}"');
    expect(() => toHonoPath('/{a}/{a}')).toThrow('variable "a" appears twice');
    expect(() => toHonoPath('/{a')).toThrow('unclosed "{"');
    expect(() => toHonoPath('/{a:(}')).toThrow('bad regular expression "("');
  });
});

describe('segments with text beside variables', () => {
  it('route the whole segment as one Hono parameter and cut the variables with named groups', () => {
    const t = toHonoPath('/ops/{id}:cancel');
    expect(t.hono).toBe('/ops/:__loom_s1{(?:[^/]+):cancel}');
    expect(t.variables).toEqual(['id']);
    const id = t.compound.get('id')!;
    expect(id.pattern.exec('42:cancel')?.groups?.[id.group]).toBe('42');
  });
  it("escape the text and keep each variable's own expression", () => {
    const t = toHonoPath('/files/{name}.{ext:[a-z]+}');
    expect(t.hono).toBe('/files/:__loom_s1{(?:[^/]+)\\.(?:[a-z]+)}');
    const [name, ext] = [t.compound.get('name')!, t.compound.get('ext')!];
    const groups = name.pattern.exec('a.b.gz')?.groups;
    expect([groups?.[name.group], groups?.[ext.group]]).toEqual(['a.b', 'gz']);
    expect(t.ranks).toEqual([3, 2]);
  });
});

describe('names and slashes as OpenAPI has them', () => {
  it('accepts variable names that are no identifiers', () => {
    const t = toHonoPath('/activitypub/user-id/{user-id}/{file.name}.{ext}');
    expect(t.variables).toEqual(['user-id', 'file.name', 'ext']);
    expect(t.hono.startsWith('/activitypub/user-id/:user-id/')).toBe(true);
  });
  it('keeps a trailing slash', () => {
    expect(toHonoPath('/items/').hono).toBe('/items/');
    expect(toHonoPath('/').hono).toBe('/');
  });
});

describe('positions from the end', () => {
  it('count whole-segment variables from the end of the path', () => {
    expect([...toHonoPath('/a/{x}/b/{y}').fromEnd]).toEqual([
      ['y', 1],
      ['x', 3],
    ]);
  });
  it('stop at a variable that may span segments', () => {
    const t = toHonoPath('/a/{x}/{rest:.+}/{y:[0-9]+}');
    expect([...t.fromEnd]).toEqual([['y', 1]]);
  });
});

describe('specificity ranks', () => {
  it('ranks literals over regex variables over plain variables', () => {
    expect(toHonoPath('/a/{b:[0-9]+}/{c}/:d/:e:[a-z]+').ranks).toEqual([3, 2, 1, 1, 2]);
  });
  it('a regex containing a slash stays one segment', () => {
    expect(toHonoPath('/f/{p:[^/]+}/x').ranks).toEqual([3, 2, 3]);
  });
});
