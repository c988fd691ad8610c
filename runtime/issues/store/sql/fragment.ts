/**
 * @module A tiny SQL builder: tagged-template fragments whose interpolations become bound
 * parameters, never text. Engines compile a fragment with their own placeholder style
 * (`?` for SQLite, `$1` for PostgreSQL), which is the only difference the shared SQL sees.
 */

type Part = { readonly text: string } | { readonly value: unknown };

/** An immutable piece of SQL with its parameters kept apart from the text. */
export class SqlFragment {
  private constructor(
    readonly parts: readonly Part[],
    /** Set by {@link planEachTime}: the statement's best plan depends on its values. */
    readonly valueDependentPlan: boolean,
  ) {}

  /** @internal builds a fragment from parts; use {@link sql}. */
  static of(parts: readonly Part[], valueDependentPlan = false): SqlFragment {
    // `slice`, not `[...parts]`: same copy, and no iterator protocol per element on long lists.
    return new SqlFragment(Object.freeze(parts.slice()), valueDependentPlan);
  }

  /** Compiles to text and values, numbering placeholders with `placeholder(i)` (1-based). */
  compile(placeholder: (index: number) => string): { readonly text: string; readonly values: unknown[] } {
    let text = '';
    const values: unknown[] = [];
    for (const part of this.parts) {
      if ('text' in part) text += part.text;
      else {
        values.push(part.value);
        text += placeholder(values.length);
      }
    }
    return { text, values };
  }
}

/**
 * Builds a fragment. Interpolated fragments are inlined; every other value becomes a parameter.
 *
 * @example
 * const q = sql`SELECT * FROM issues WHERE repo_id = ${repoId} AND ${cond}`;
 * q.compile(() => '?'); // { text: 'SELECT * FROM issues WHERE repo_id = ? AND …', values: [repoId, …] }
 */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  const parts: Part[] = [];
  strings.forEach((text, i) => {
    if (text) parts.push({ text });
    if (i < values.length) {
      const value = values[i];
      if (value instanceof SqlFragment) append(parts, value.parts);
      else parts.push({ value });
    }
  });
  return SqlFragment.of(parts);
}

/**
 * `target.push(...source)` without the spread: a spread passes every element as an argument, and
 * a fragment of a few hundred thousand parts (a long `IN` list) overflows the call stack.
 */
function append(target: Part[], source: readonly Part[]): void {
  for (const part of source) target.push(part);
}

/**
 * Marks a statement whose best plan depends on its values, such as a keyword search (a rare word
 * and a common one want different plans): engines that reuse plans of prepared statements plan
 * this one for its values on every run. Only the statement passed to the driver counts.
 *
 * @example
 * await db.all(planEachTime(sql`SELECT COUNT(*) AS n FROM issues i WHERE ${keywordCondition}`));
 */
export function planEachTime(fragment: SqlFragment): SqlFragment {
  return SqlFragment.of(fragment.parts, true);
}

/**
 * Trusted SQL text: identifiers and keywords chosen by the code, never user input.
 *
 * @example
 * raw('DESC')
 */
export function raw(text: string): SqlFragment {
  return SqlFragment.of([{ text }]);
}

/**
 * Joins fragments with a separator (`, ` by default).
 *
 * @example
 * join([sql`a = ${1}`, sql`b = ${2}`], ' AND ')
 */
export function join(fragments: readonly SqlFragment[], separator = ', '): SqlFragment {
  const parts: Part[] = [];
  fragments.forEach((fragment, i) => {
    if (i > 0) parts.push({ text: separator });
    append(parts, fragment.parts);
  });
  return SqlFragment.of(parts);
}

/**
 * A parenthesised parameter list for `IN`: `(?, ?, ?)`. An empty list gives `(NULL)`, which
 * matches nothing, so callers need no special case. One parameter per value: engines cap the
 * parameters of a statement (SQLite 32,766, PostgreSQL 65,535), so lists of unbounded length go
 * through `inList` (`sql-dialect.ts`) instead.
 *
 * @example
 * sql`id IN ${list([1, 2, 3])}`
 */
export function list(values: readonly unknown[]): SqlFragment {
  if (values.length === 0) return raw('(NULL)');
  const parts: Part[] = [{ text: '(' }];
  values.forEach((value, i) => {
    if (i > 0) parts.push({ text: ', ' });
    if (value instanceof SqlFragment) append(parts, value.parts);
    else parts.push({ value });
  });
  parts.push({ text: ')' });
  return SqlFragment.of(parts);
}

/** `cond1 AND cond2 …`, or `TRUE` when there are none. */
export function and(conditions: readonly SqlFragment[]): SqlFragment {
  return conditions.length === 0 ? raw('1 = 1') : join(conditions, ' AND ');
}
