/**
 * @module
 * The declaration-line scanner and the extension stripping done before protobufjs parses.
 */
import { describe, expect, it } from 'vitest';
import { scanProto, withoutExtensions } from './scan.js';

const SOURCE = `syntax = "proto2"; // header
package p;
import "a/b.proto";
/* a } comment { */
message Outer {
  optional string name = 1 [default = "x = {"];
  message Inner { optional int32 n = 1; }
  oneof pick {
    string s = 2;
  }
  option (my.opt) = { a: 1 };
  enum Kind { A = 0; }
}
extend Outer {
  optional int32 ext = 100;
}
service S {
  rpc Call(Outer) returns (Outer) { option (http) = { get: "/x" }; }
}
`;

describe('scanProto', () => {
  it('finds the line of every declaration', () => {
    const scan = scanProto(SOURCE);
    expect(scan.syntax).toBe('proto2');
    expect(Object.fromEntries(scan.lines)).toEqual({
      'import:a/b.proto': 3,
      Outer: 5,
      'Outer#name': 6,
      'Outer.Inner': 7,
      'Outer.Inner#n': 7,
      'Outer#s': 9,
      'Outer.Kind': 12,
      'Outer.Kind#A': 12,
      S: 17,
      'S#Call': 18,
    });
    expect(scan.extensions.map((e) => [e.extendee, e.line])).toEqual([['Outer', 14]]);
  });

  it('blanks extend blocks without moving lines', () => {
    const stripped = withoutExtensions(SOURCE, scanProto(SOURCE));
    expect(stripped.split('\n')).toHaveLength(SOURCE.split('\n').length);
    expect(stripped).not.toContain('ext = 100');
    expect(stripped.split('\n')[16]).toBe('service S {');
  });
});
