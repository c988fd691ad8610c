/**
 * @module
 * Parsing `systemctl show` output: `KEY=VALUE` lines, one block per unit, blocks separated by
 * an empty line when several units are shown at once.
 */

/** One unit's properties, as systemd printed them (values are never trimmed beyond the line end). */
export type UnitProperties = ReadonlyMap<string, string>;

/**
 * @example
 * ```ts
 * parseShowOutput('Id=a.service\nActiveState=active\n\nId=b.service\nActiveState=inactive\n');
 * // [Map { Id => 'a.service', ActiveState => 'active' }, Map { Id => 'b.service', ActiveState => 'inactive' }]
 * ```
 */
export function parseShowOutput(stdout: string): UnitProperties[] {
  const units: Map<string, string>[] = [];
  let current: Map<string, string> | undefined;
  for (const line of stdout.split(/\r?\n/)) {
    if (line === '') {
      current = undefined;
      continue;
    }
    const eq = line.indexOf('=');
    // systemctl prints nothing else, but a line without "=" must not become a property.
    if (eq <= 0) continue;
    if (!current) {
      current = new Map();
      units.push(current);
    }
    current.set(line.slice(0, eq), line.slice(eq + 1));
  }
  return units;
}

/** Splits a list-valued property (`RequiredBy=a.service b.service`). */
export function splitUnitList(value: string | undefined): string[] {
  return (value ?? '').split(/\s+/).filter((unit) => unit !== '');
}
