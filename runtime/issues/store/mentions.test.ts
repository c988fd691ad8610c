/** @module Mention parsing. */

import { describe, expect, it } from 'vitest';
import { parseMentions } from './mentions.js';

describe('parseMentions', () => {
  it('finds @names at the start, after spaces and punctuation, lower-cased and de-duplicated', () => {
    expect(parseMentions('@Alice look', '(@bob), cc:@carol; @ALICE again')).toEqual(['alice', 'bob', 'carol']);
  });

  it('ignores e-mail addresses and paths, and drops a trailing dot', () => {
    expect(parseMentions('mail bob@example.com or see a/@x', 'thanks @dave.')).toEqual(['dave']);
    expect(parseMentions('@first.last-name_1 and @x')).toEqual(['first.last-name_1', 'x']);
    expect(parseMentions('no mentions here', '@')).toEqual([]);
  });
});
