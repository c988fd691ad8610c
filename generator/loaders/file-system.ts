/**
 * @module
 * Where loaders read schemas from: the disk, or text held in memory. Loaders only read through a
 * {@link SchemaFileSystem}, so a test (or a tool that has the text already, such as an editor)
 * loads schemas without writing them to a temporary folder first.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { posix, resolve } from 'node:path';

/** What a path names. */
export type EntryKind = 'file' | 'folder';

/** The reads loaders make. Paths are absolute. */
export interface SchemaFileSystem {
  /** The file's text; rejects (with `code: 'ENOENT'` when it does not exist) otherwise. */
  readFile(path: string): Promise<string>;
  /** What `path` is, or undefined when nothing is there. */
  kind(path: string): Promise<EntryKind | undefined>;
  /** The entries of a folder, unsorted. */
  list(folder: string): Promise<{ readonly name: string; readonly kind: EntryKind }[]>;
}

/**
 * The disk, through `node:fs/promises`.
 *
 * @example
 * await loadSchemas(['schemas'], { root: 'schemas', fileSystem: NODE_FILE_SYSTEM });
 */
export const NODE_FILE_SYSTEM: SchemaFileSystem = {
  readFile: (path) => readFile(path, 'utf8'),
  async kind(path) {
    try {
      const info = await stat(path);
      return info.isDirectory() ? 'folder' : info.isFile() ? 'file' : undefined;
    } catch {
      return undefined;
    }
  },
  async list(folder) {
    const entries = await readdir(folder, { withFileTypes: true });
    const out: { name: string; kind: EntryKind }[] = [];
    for (const e of entries) if (e.isDirectory() || e.isFile()) out.push({ name: e.name, kind: e.isDirectory() ? 'folder' : 'file' });
    return out;
  },
};

/**
 * Files held in memory, by path below `root` (`/`-separated). Folders are implied by the paths.
 *
 * @example
 * const fs = memoryFileSystem({ 'api.yaml': 'openapi: 3.1.0\n…', 'shared/user.yaml': '…' }, '/virtual');
 * await loadSchemas(['/virtual/api.yaml'], { root: '/virtual', fileSystem: fs });
 */
export function memoryFileSystem(files: Readonly<Record<string, string>>, root: string): SchemaFileSystem {
  const byPath = new Map<string, string>();
  const folders = new Map<string, Map<string, EntryKind>>();
  const addEntry = (folder: string, name: string, kind: EntryKind) => {
    let entries = folders.get(folder);
    if (!entries) folders.set(folder, (entries = new Map()));
    entries.set(name, kind);
  };
  for (const [path, text] of Object.entries(files)) {
    const abs = resolve(root, path);
    byPath.set(abs, text);
    // Every folder above the file, up to the file system's root.
    let child = abs;
    let kind: EntryKind = 'file';
    for (let folder = posix.dirname(abs); ; folder = posix.dirname(folder)) {
      addEntry(folder, posix.basename(child), kind);
      if (folder === posix.dirname(folder)) break;
      child = folder;
      kind = 'folder';
    }
  }
  return {
    async readFile(path) {
      const text = byPath.get(resolve(path));
      if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: 'ENOENT' });
      return text;
    },
    async kind(path) {
      const abs = resolve(path);
      return byPath.has(abs) ? 'file' : folders.has(abs) ? 'folder' : undefined;
    },
    async list(folder) {
      return [...(folders.get(resolve(folder)) ?? [])].map(([name, kind]) => ({ name, kind }));
    },
  };
}
