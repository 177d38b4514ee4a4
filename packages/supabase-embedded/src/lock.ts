/**
 * One process per data directory. PGlite has no lock of its own, and two processes writing one
 * `pgdata` corrupt it, so the backend holds `backend.lock` (the owner's pid) while it runs.
 *
 * Taking the lock is one exclusive create (`O_CREAT | O_EXCL`): of any number of processes
 * starting at once, exactly one succeeds. A lock left by a process that died (SIGKILL, power
 * loss) is stale and must be removed, and that removal is the racy part: two starters could both
 * read the dead pid, one removes the file and creates its own lock, and the other then removes
 * that fresh lock. So a stale lock is only ever removed by the holder of a second exclusive file,
 * `backend.lock.takeover`, after reading the lock again under it: a lock that has meanwhile been
 * re-created names a live process and is left alone.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';

/** An error whose message is meant for the operator as it is (the server prints no stack trace). */
export class StartupError extends Error {
  override name = 'StartupError';
}

/**
 * A takeover file (or an empty lock file) older than this was left by a process that died in the
 * few system calls between creating and finishing it: it is removed so that starting is never
 * blocked for good.
 */
const ABANDONED_MS = 10_000;
const ATTEMPTS = 200;

/** Takes the data directory's lock or throws a StartupError naming the process that holds it. */
export function acquireLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'backend.lock');
  const takeoverFile = `${lockFile}.takeover`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (createExclusive(lockFile)) return () => rmSync(lockFile, { force: true });
    if (inspect(lockFile, dataDir) === 'being-written') {
      pause();
      continue;
    }
    // Stale (or just removed by someone else): remove it, but only under the takeover file.
    if (createExclusive(takeoverFile)) {
      try {
        if (inspect(lockFile, dataDir) === 'stale') rmSync(lockFile, { force: true });
      } finally {
        rmSync(takeoverFile, { force: true });
      }
    } else {
      if (ageMs(takeoverFile) > ABANDONED_MS) rmSync(takeoverFile, { force: true });
      pause(); // another starter is taking over right now
    }
  }
  throw new StartupError(`Could not lock the data directory ${dataDir}: remove ${lockFile} if no server runs on it.`);
}

/**
 * Throws when a live process other than this one holds the lock. Otherwise: `stale` (its owner
 * is gone, or the file is gone), or `being-written` (created an instant ago and still empty:
 * its creator is between the create and the write, so it is waited for, never removed).
 */
function inspect(lockFile: string, dataDir: string): 'stale' | 'being-written' {
  let text: string;
  try {
    text = readFileSync(lockFile, 'utf8');
  } catch {
    return 'stale';
  }
  const pid = Number.parseInt(text, 10);
  if (!(Number.isSafeInteger(pid) && pid > 0)) return ageMs(lockFile) > ABANDONED_MS ? 'stale' : 'being-written';
  if (pid !== process.pid && isAlive(pid)) {
    throw new StartupError(`The data directory ${dataDir} is in use by process ${pid}; stop it first.`);
  }
  return 'stale';
}

/** Creates `file` holding this process's pid; false if it exists. */
function createExclusive(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, String(process.pid));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A short synchronous wait (the lock is taken once, at start-up, before anything else runs). */
function pause() {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5 + Math.random() * 20);
}
