/**
 * @module
 * Line numbers for JSON pointers in a JSON text, without a second full parse into an AST.
 *
 * JSON documents are parsed with `JSON.parse` (fast, no positions); when a diagnostic
 * needs a line this scanner walks the text once and records the line of every key.
 */

/** Escapes one JSON pointer segment (`/` → `~1`, `~` → `~0`). */
export function escapePointerSegment(segment: string): string {
  // Most segments (property names, `properties`, `items`) need no escaping: skip two regex passes.
  if (!segment.includes('~') && !segment.includes('/')) return segment;
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Maps each JSON pointer in `text` to the 1-based line where its key (or array item) starts.
 * Returns an empty map for text that is not JSON.
 * @example jsonPointerLines('{\n "a": {\n  "b": 1 }}').get('/a/b') // 3
 */
export function jsonPointerLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const n = text.length;
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 10) line++;
      else if (c !== 32 && c !== 9 && c !== 13) break;
      i++;
    }
  };
  const str = (): string => {
    const start = i;
    let escaped = false;
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) break; // "
      if (c === 92) {
        escaped = true;
        i += 2;
      } else i++;
    }
    i++;
    // Most keys have no escapes: slicing is much cheaper than JSON.parse.
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, i - 1);
  };
  const value = (pointer: string): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      while (i < n) {
        ws();
        const keyLine = line;
        const key = str();
        const child = `${pointer}/${escapePointerSegment(key)}`;
        lines.set(child, keyLine);
        ws();
        i++; // ':'
        value(child);
        ws();
        if (text[i++] === '}') return;
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let index = 0; i < n; index++) {
        ws();
        const child = `${pointer}/${index}`;
        lines.set(child, line);
        value(child);
        ws();
        if (text[i++] === ']') return;
      }
    } else if (c === '"') {
      str();
    } else {
      // number, true, false, null: up to the next delimiter
      for (
        let c = text.charCodeAt(i);
        i < n && c !== 44 && c !== 93 && c !== 125 && c !== 32 && c !== 10 && c !== 13 && c !== 9;
        c = text.charCodeAt(++i)
      );
    }
  };
  try {
    lines.set('', 1);
    value('');
  } catch {
    // Not JSON after all: positions are a convenience, never a reason to fail.
  }
  return lines;
}
