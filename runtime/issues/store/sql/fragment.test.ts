/** @module The SQL builder: values always become parameters. */

import { describe, expect, it } from 'vitest';
import { and, join, list, raw, sql } from './fragment.js';

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
    expect(query.compile((i) => `$${i}`)).toEqual({ text: 'SELECT 1 WHERE a = $1 AND b IN ($2, $3) ORDER BY id DESC LIMIT $4', values: [1, 2, 3, 4] });
  });

  it('gives an empty IN list that matches nothing and an empty AND that matches everything', () => {
    expect(sql`id IN ${list([])}`.compile(() => '?')).toEqual({ text: 'id IN (NULL)', values: [] });
    expect(and([]).compile(() => '?').text).toBe('1 = 1');
    expect(join([sql`${1}`, sql`${2}`], ' | ').compile(() => '?')).toEqual({ text: '? | ?', values: [1, 2] });
  });
});
