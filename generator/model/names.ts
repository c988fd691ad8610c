/**
 * @module
 * Names of the model: camelCase and PascalCase conversion, proto's default `json_name`, safe
 * identifiers that are never reserved words, and unique names within a scope. Loaders derive
 * every `localName` with these; emitters and the printer use the same rules.
 */

/** TypeScript type keywords and the utility types generated code names: reserved for type names, harmless as variable names. */
const TYPE_ONLY_WORDS: ReadonlySet<string> = new Set([
  'type',
  'any',
  'unknown',
  'never',
  'object',
  'string',
  'number',
  'boolean',
  'bigint',
  'Record',
  'Partial',
]);

/**
 * Reserved words and names that would shadow globals used by generated code.
 * @see https://tc39.es/ecma262/#sec-keywords-and-reserved-words
 */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'yield',
  'let',
  'static',
  'implements',
  'interface',
  'package',
  'private',
  'protected',
  'public',
  'await',
  'async',
  'arguments',
  'eval',
  'undefined',
  'NaN',
  'Infinity',
  'Object',
  'Array',
  'String',
  'Number',
  'Boolean',
  'Symbol',
  'Date',
  'Error',
  'Promise',
  'Map',
  'Set',
  'Uint8Array',
  'JSON',
  ...TYPE_ONLY_WORDS,
]);

const LEXICAL_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Latin letters that have no decomposition into a base letter and a mark. */
const LATIN_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'TH',
  ð: 'd',
  Ð: 'D',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
};

/**
 * Latin letters with diacritics become their base letters (`Über` → `Uber`, `Straße` →
 * `Strasse`), so names stay typeable; letters of other scripts are kept as they are,
 * since they are valid in JavaScript identifiers and dropping them loses the name.
 * @example transliterate('Über-Admin') // 'Uber-Admin'
 */
export function transliterate(name: string): string {
  if (/^[\x00-\x7f]*$/.test(name)) return name; // the common case: nothing to do
  return name
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .replace(/[ßẞæÆœŒøØđĐłŁþÞðÐıħĦ]/g, (c) => LATIN_LETTERS[c] ?? c);
}

/**
 * Splits a name at separators and lower→upper case changes: `issue_getIssue-list` → `issue`, `get`, `Issue`, `list`.
 * Letters and digits of any script count as word characters (after {@link transliterate}).
 */
function words(name: string): string[] {
  // The Unicode-aware expressions are several times slower than ASCII ones, and almost every
  // wire name is ASCII; for ASCII text the two pairs split identically.
  const ascii = /^[\x00-\x7f]*$/.test(name);
  return (
    ascii
      ? name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^A-Za-z0-9]+/)
      : transliterate(name)
          .replace(/([\p{Ll}\p{Nd}])(\p{Lu})/gu, '$1 $2')
          .split(/[^\p{L}\p{Nd}]+/u)
  ).filter((w) => w !== '');
}

/**
 * camelCase from any wire name. Words keep their inner case so acronyms survive
 * (`X-Request-ID` → `xRequestID`), which is what people write by hand.
 * @example camelCase('priority_repo_id') // 'priorityRepoId'
 */
export function camelCase(name: string): string {
  const parts = words(name);
  if (parts.length === 0) return '';
  return parts.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

/**
 * PascalCase from any name.
 * @example pascalCase('gitea api') // 'GiteaApi'
 */
export function pascalCase(name: string): string {
  return words(name)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

/**
 * protoc's default `json_name`: underscores dropped, the following letter upper-cased,
 * everything else kept (`display_name` → `displayName`, `Foo_bar` → `FooBar`).
 * @example protoJsonName('start_type') // 'startType'
 */
export function protoJsonName(name: string): string {
  let out = '';
  let upper = false;
  for (const c of name) {
    if (c === '_') upper = true;
    else if (upper) {
      out += c.toUpperCase();
      upper = false;
    } else out += c;
  }
  return out;
}

/**
 * A name usable as a binding (type, class, function or variable name): invalid characters
 * become `_`, a leading digit gets a `_` prefix, and reserved words get a `$` suffix
 * (as protobuf-es does), so `Object` → `Object$` and `in` → `in$`.
 * @example safeIdentifier('issue.Label') // 'issue_Label'
 */
export function safeIdentifier(name: string): string {
  let id = transliterate(name).replace(/[^\p{L}\p{Nd}_$]/gu, '_');
  if (id === '') id = '_';
  if (/^\p{Nd}/u.test(id)) id = `_${id}`;
  return RESERVED_WORDS.has(id) ? `${id}$` : id;
}

/**
 * A name usable as a variable or parameter: like {@link safeIdentifier}, but type-only
 * keywords stay as they are, since `type` or `string` are fine value names and a query
 * parameter `type` should stay `type`.
 * @example safeVariableName('in') // 'in$'
 * @example safeVariableName('type') // 'type'
 */
export function safeVariableName(name: string): string {
  const id = safeIdentifier(name);
  return id.endsWith('$') && TYPE_ONLY_WORDS.has(id.slice(0, -1)) ? id.slice(0, -1) : id;
}

/**
 * A name usable as a property key in an object literal or interface: only lexical rules
 * apply (reserved words are fine as keys), so only invalid characters are replaced.
 * @example safePropertyName('hamster-like') // 'hamster_like'
 */
export function safePropertyName(name: string): string {
  if (LEXICAL_IDENTIFIER.test(name)) return name;
  let id = name.replace(/[^A-Za-z0-9_$]/g, '_');
  if (/^[0-9]/.test(id) || id === '') id = `_${id}`;
  return id;
}

/**
 * Hands out names unique within one scope: the second `foo` becomes `foo2`, and so on.
 * @example
 * const names = new UniqueNames(['body']);
 * names.take('body'); // 'body2'
 */
export class UniqueNames {
  readonly #taken: Set<string>;

  constructor(reserved: Iterable<string> = []) {
    this.#taken = new Set(reserved);
  }

  take(name: string): string {
    let candidate = name;
    for (let i = 2; this.#taken.has(candidate); i++) candidate = `${name}${i}`;
    this.#taken.add(candidate);
    return candidate;
  }
}

/**
 * Hands out names of class members that come in groups: each name claims every name `group`
 * derives from it (`getItem` claims `getItemWithResponse` too), and a candidate is taken only
 * when its whole group is free. Reserved names get a `$` suffix, as reserved words do
 * ({@link safeIdentifier}); later clashes get `2`, `3`, …
 *
 * @example
 * const names = new MemberNames(['constructor'], (n) => [n, `${n}WithResponse`]);
 * names.take('get'); // 'get'
 * names.take('getWithResponse'); // 'getWithResponse2'
 * names.take('constructor'); // 'constructor$'
 */
export class MemberNames {
  readonly #reserved: ReadonlySet<string>;
  readonly #taken = new Set<string>();
  readonly #group: (name: string) => readonly string[];

  constructor(reserved: Iterable<string>, group: (name: string) => readonly string[] = (n) => [n]) {
    this.#reserved = new Set(reserved);
    this.#group = group;
  }

  take(name: string): string {
    const base = this.#reserved.has(name) ? `${name}$` : name;
    let candidate = base;
    for (let i = 2; this.#group(candidate).some((n) => this.#taken.has(n) || this.#reserved.has(n)); i++) candidate = `${base}${i}`;
    for (const n of this.#group(candidate)) this.#taken.add(n);
    return candidate;
  }
}
