/**
 * @module
 * Writing a plan, the scaffolder's only file-system writes. Every target is checked before any is
 * written (a read-only file, a folder that cannot be written, a file changed since it was read),
 * each file is replaced atomically (a temporary file beside it, then a rename, its mode kept), and
 * if a write still fails the files already written are put back: no file is ever half-written,
 * and a failed run leaves the folders as they were.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { access, chmod, mkdir, readFile, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ImplementProblem, PlannedFile } from './plan.js';

/** The plan could not be written; nothing was. */
export class WriteRefusedError extends Error {
  override readonly name = 'WriteRefusedError';
  readonly problems: readonly ImplementProblem[];
  constructor(problems: readonly ImplementProblem[]) {
    super(problems.map((p) => p.message).join('; '));
    this.problems = problems;
  }
}

/**
 * Writes every planned file, or none.
 *
 * @throws {WriteRefusedError} when a target cannot be written (nothing is written then)
 *
 * @example
 * await writePlan(plan.files);
 */
export async function writePlan(files: readonly PlannedFile[]): Promise<void> {
  const targets = await Promise.all(files.map(async (f) => ({ file: f, target: await targetOf(f) })));
  const problems = (await Promise.all(targets.map(({ file, target }) => refusal(file, target)))).filter((p) => p !== undefined);
  if (problems.length > 0) throw new WriteRefusedError(problems);
  const done: { file: PlannedFile; target: string; mode: number | undefined }[] = [];
  try {
    for (const { file, target } of targets) {
      const mode = file.before === undefined ? undefined : (await stat(target)).mode & 0o7777;
      if (file.before === undefined) await mkdir(dirname(target), { recursive: true });
      await replaceAtomically(target, file.after, mode);
      done.push({ file, target, mode });
    }
  } catch (error) {
    // Put back what was written; the run fails as a whole.
    for (const { file, target, mode } of done.reverse()) {
      if (file.before === undefined) await unlink(target).catch(() => {});
      else await replaceAtomically(target, file.before, mode).catch(() => {});
    }
    throw error;
  }
}

/** The real file behind a path (a symbolic link is written through, not replaced). */
async function targetOf(file: PlannedFile): Promise<string> {
  if (file.before === undefined) return file.path;
  try {
    return await realpath(file.path);
  } catch {
    return file.path;
  }
}

/** Why a planned file cannot be written, or `undefined` when it can. */
async function refusal(file: PlannedFile, target: string): Promise<ImplementProblem | undefined> {
  const refuse = (message: string): ImplementProblem => ({ severity: 'error', path: file.path, line: undefined, message });
  if (file.before !== undefined) {
    let info: Stats;
    try {
      info = await stat(target);
    } catch {
      return refuse('cannot write: the file disappeared while the plan was made; run again');
    }
    // No write bit at all is a read-only file, even for root, whom access() lets through: a rename
    // would replace it regardless, so the check is the mode itself.
    if ((info.mode & 0o222) === 0 || !(await canAccess(target, constants.W_OK))) {
      return refuse('cannot write: the file is read-only; make it writable (chmod u+w) and run again');
    }
    if ((await readFile(target, 'utf8')) !== file.before)
      return refuse('cannot write: the file changed while the plan was made; run again');
  } else if (await canAccess(target, constants.F_OK)) {
    return refuse('cannot create: the file exists now; run again');
  }
  const folder = await nearestFolder(dirname(target));
  if (!(await canAccess(folder, constants.W_OK)) || ((await stat(folder)).mode & 0o222) === 0) {
    return refuse(`cannot write: the folder ${folder} is read-only`);
  }
  return undefined;
}

async function replaceAtomically(target: string, text: string, mode: number | undefined): Promise<void> {
  const temporary = join(dirname(target), `.${basename(target)}.loom-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text, mode === undefined ? {} : { mode });
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

async function canAccess(path: string, mode: number): Promise<boolean> {
  try {
    await access(path, mode);
    return true;
  } catch {
    return false;
  }
}

/** The folder itself, or the nearest existing one above it (new files may need new folders). */
async function nearestFolder(folder: string): Promise<string> {
  for (let current = folder; ; current = dirname(current)) {
    if (await canAccess(current, constants.F_OK)) return current;
    if (dirname(current) === current) return current;
  }
}
