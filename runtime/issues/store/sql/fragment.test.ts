/** @module The SQL builder: values always become parameters. */

import { describe, expect, it } from 'vitest';
import { postgresDialect } from '../postgres/postgres-dialect.js';
import { sqliteDialect } from '../sqlite/sqlite-dialect.js';
import { and, join, list, raw, sql } from './fragment.js';
import { inList, MAX_INLINE_LIST } from './sql-dialect.js';

describe('sql fragments', () => {
  it('turns every interpolated value into a parameter, numbered per engine', () => {
    const name = "x'); DROP TABLE issues; --";
    const query = sql`SELECT * FROM users WHERE lower_name = ${name} AND id > ${3}`;
    expect(query.compile(() => '?')).toEqual({ text: 'SELECT * FROM users WHERE lower_name = ? AND id > ?', values: [name, 3] });
    expect(query.compile((i) => `$${i}`).text).toBe('SELECT * FROM users WHERE lower_name = $1 AND id > $2');
  });

  it('inlines nested fragments and keeps parameter order', () => {
    const cond = and([sql`a = ${1}`, sql`b IN ${list([2, 3])}`]);
    const query = sql`SELECT 1 WHERE ${cond} ORDER BY ${raw('id DESC')} LIMIT ${4}`;
    expect(query.compile((i) => `$${i}`)).toEqual({
      text: 'SELECT 1 WHERE a = $1 AND b IN ($2, $3) ORDER BY id DESC LIMIT $4',
      values: [1, 2, 3, 4],
    });
  });

  it('gives an empty IN list that matches nothing and an empty AND that matches everything', () => {
    expect(sql`id IN ${list([])}`.compile(() => '?')).toEqual({ text: 'id IN (NULL)', values: [] });
    expect(and([]).compile(() => '?').text).toBe('1 = 1');
    expect(join([sql`${1}`, sql`${2}`], ' | ').compile(() => '?')).toEqual({ text: '? | ?', values: [1, 2] });
  });

  it('builds statements around lists of any length without overflowing the stack', () => {
    // A spread of this many parts into push() exceeded the call stack.
    const values = Array.from({ length: 300_000 }, (_, i) => i);
    const query = sql`SELECT 1 WHERE ${and([sql`a IN ${list(values)}`, join([sql`b = ${1}`, sql`c = ${2}`])])}`;
    const { text, values: bound } = query.compile(() => '?');
    expect(bound).toHaveLength(300_002);
    expect(text.startsWith('SELECT 1 WHERE a IN (?, ?, ')).toBe(true);
  });

  it('binds a short IN list value by value and a long one as a single array parameter', () => {
    const short = Array.from({ length: MAX_INLINE_LIST }, (_, i) => i);
    expect(sql`id IN ${inList(sqliteDialect, short)}`.compile(() => '?').values).toHaveLength(MAX_INLINE_LIST);
    const long = [...short, MAX_INLINE_LIST];
    expect(sql`id IN ${inList(sqliteDialect, long)}`.compile(() => '?')).toEqual({
      text: 'id IN (SELECT value FROM json_each(?))',
      values: [JSON.stringify(long)],
    });
    expect(sql`id IN ${inList(postgresDialect, long)}`.compile((i) => `$${i}`)).toEqual({
      text: 'id IN (SELECT unnest($1::bigint[]))',
      values: [long],
    });
    const names = long.map(String);
    expect(sql`n IN ${inList(postgresDialect, names)}`.compile((i) => `$${i}`).text).toBe('n IN (SELECT unnest($1::text[]))');
  });
});
