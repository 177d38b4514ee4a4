/**
 * PGlite in a worker thread, as a `Database` (ADR 031). PGlite runs a statement to its end on the
 * thread that called it and cannot be interrupted: on the main thread, one runaway statement (a
 * regex that backtracks, a cross join) held every request, `/healthz` and SIGTERM included. Here
 * it runs in `pglite-worker.js`, so the main thread keeps answering, and a statement still
 * running at its deadline is ended by terminating the thread and starting a new one on the same
 * data directory. Committed transactions are in the data directory's files, as after a crash
 * (PostgreSQL replays its WAL on the next open), so no acknowledged write is lost; the statement
 * and its transaction fail with PostgreSQL's own `57014` error, which the Data API answers as
 * PostgREST does (500).
 *
 * One statement at a time, as PGlite's single connection always did: a transaction holds the
 * thread from BEGIN to COMMIT and other statements wait their turn. A transaction's steps are
 * posted as they are asked for, without waiting for the answers before them, and a statement
 * marked `last` commits with it (ADR 077): a read's transaction costs the thread no wait for
 * this thread's event loop, busy rendering pages meanwhile. The deadline applies to the
 * statements of requests' transactions (`{ deadline: true }`, opened by `withClaims`), and counts
 * from the moment a statement is handed to the thread, not while it waits. An in-memory database
 * (`dataDir: null`) keeps its files in a temporary directory, removed on close, so that a restart
 * finds them too.
 */
import { cpSync, mkdtempSync, readdirSync, readlinkSync, rmSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Database, QueryResult, Queryable, Transaction, TransactionOptions } from './database';

export interface PGliteThreadOptions {
  /** PGlite's data directory (`<dataDir>/pgdata`), or null for a temporary one removed on close. */
  dataPath: string | null;
  /** `pglite-worker.js`. */
  workerFile: string;
  /** A tarball to make a new database from (ADR 025), read by the thread on its first start only. */
  snapshotFile?: string;
  /**
   * A closed data directory whose files are copied into a new temporary one before the thread
   * first starts: the database opens as an existing one, nothing unpacked (a test run's seeded
   * database, `EMBEDDED_SEEDED_TEMPLATE` in database.ts).
   */
  copyFrom?: string;
  log?: (line: string) => void;
}

/** The embedded `Database`, with what the start-up and the tests need besides. */
export interface PGliteThreadDatabase extends Database {
  readonly kind: 'embedded';
  /**
   * How long one statement of a `{ deadline: true }` transaction (a request's) may run, in ms, or
   * null for no limit. Statements outside such transactions have none.
   */
  deadlineMs: number | null;
  /** How many times the thread was ended and started again (a statement past its deadline). */
  readonly restarts: number;
  /**
   * Whether statements run or wait right now, or the thread is being started again: each ends by
   * its deadline at the latest, so the database is up, only busy.
   */
  readonly busy: boolean;
  /** Whether the thread is being started again (a statement passed its deadline) right now. */
  readonly restarting: boolean;
  /** The data directory as a tarball (the new database's snapshot, ADR 025). */
  dump(): Promise<Uint8Array>;
  /**
   * Runs `work` while no statement or transaction of anyone else runs or starts: what it reads
   * and dumps is one moment of the database (a backup: the data directory and the Storage files
   * its rows name, ADR 067). Everyone else waits, so `work` should be short.
   */
  whileAlone<T>(work: (alone: Queryable & { dump(): Promise<Uint8Array> }) => Promise<T>): Promise<T>;
}

/** PostgreSQL's error for a statement ended by `statement_timeout`, with PGlite's error fields. */
export class StatementTimeoutError extends Error {
  override name = 'error';
  readonly code = '57014';
  readonly severity = 'ERROR';
  constructor() {
    super('canceling statement due to statement timeout');
  }
}

/** The thread ended on its own (PGlite aborted): what was running fails, and a new one starts. */
function threadLostError(reason: string) {
  return Object.assign(new Error(`terminating connection: the database thread stopped (${reason})`), {
    name: 'error',
    code: '57P01',
    severity: 'FATAL',
  });
}

interface SerialisedError {
  message: string;
  name: string;
  stack?: string;
  [field: string]: unknown;
}

function reviveError(data: SerialisedError): Error {
  const { message, name, stack, ...fields } = data;
  const error = Object.assign(new Error(message), fields);
  error.name = name;
  if (stack) error.stack = stack;
  return error;
}

type Op =
  | { op: 'query'; sql: string; params?: unknown[]; last?: boolean }
  | { op: 'exec'; sql: string }
  | { op: 'begin' | 'commit' | 'rollback' | 'dump' | 'close' }
  | { op: 'listen' | 'unlisten'; channel: string };

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
}

/**
 * How long `close()` waits for what was asked before it (a shutdown lets in-flight requests end)
 * before it ends the thread anyway: a runaway statement does not hold a shutdown to its deadline.
 */
const CLOSE_GRACE_MS = 1_000;

/** What operations still waiting when the database closed fail with (PostgreSQL's admin shutdown). */
function shutDownError() {
  return Object.assign(new Error('terminating connection due to administrator command'), {
    name: 'error',
    code: '57P01',
    severity: 'FATAL',
  });
}

interface Thread {
  worker: Worker;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  /** Set when this side ends the thread (deadline, close): its exit is expected, nothing more goes to it. */
  ending: boolean;
}

export async function openPGliteThread(options: PGliteThreadOptions): Promise<PGliteThreadDatabase> {
  const log = options.log ?? console.error;
  const temporary = options.dataPath === null;
  const dataPath = options.dataPath ?? path.join(mkdtempSync(path.join(os.tmpdir(), 'pglite-')), 'pgdata');
  const removeTemporary = () => {
    if (!temporary) return;
    temporaryDirs.delete(path.dirname(dataPath));
    rmSync(path.dirname(dataPath), { recursive: true, force: true });
  };
  if (temporary) rememberTemporary(path.dirname(dataPath));
  if (temporary && options.copyFrom) cpSync(options.copyFrom, dataPath, { recursive: true });

  let nextId = 0;
  let nextTransaction = 0;
  let restarts = 0;
  let closed = false;
  let running = 0;
  /** While a new thread starts: what operations wait for. */
  let restarting: Promise<void> | null = null;
  /** Why the last restart failed: every operation fails with it from then on. */
  let broken: Error | null = null;
  /** Set once `close()` has ended the thread: what still comes fails with it. */
  let stopped: Error | null = null;
  const channels = new Map<string, Set<(payload: string) => void>>();
  const resumers = new Set<() => void>();

  const startThread = (snapshotFile?: string): Thread => {
    const worker = new Worker(options.workerFile, { workerData: { dataPath, snapshotFile } });
    const thread: Thread = { worker, ready: Promise.resolve(), pending: new Map(), ending: false };
    thread.ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: Record<string, unknown>) => {
        if ('ready' in message) {
          if (message.ready) resolve();
          else reject(reviveError(message.error as SerialisedError));
          return;
        }
        if ('notify' in message) {
          for (const handler of channels.get(message.notify as string) ?? []) handler(message.payload as string);
          return;
        }
        const entry = thread.pending.get(message.id as number);
        if (!entry) return;
        thread.pending.delete(message.id as number);
        clearTimeout(entry.timer);
        if ('error' in message) entry.reject(reviveError(message.error as SerialisedError));
        else entry.resolve(message.result);
      });
      worker.on('error', (error) => {
        log(`The database thread failed: ${error.message}`);
        reject(error);
      });
      worker.on('exit', (code) => {
        const error = threadLostError(`exit code ${code}`);
        reject(error);
        if (!thread.ending && current === thread && !closed) replace(error);
      });
    });
    thread.ready.catch(() => {});
    return thread;
  };

  let current = startThread(options.snapshotFile);
  try {
    await current.ready;
  } catch (error) {
    current.ending = true;
    await current.worker.terminate();
    removeTemporary();
    throw error;
  }

  /** Ends the current thread (what it runs fails with `error`) and starts another on the same files. */
  const replace = (error: Error) => {
    const old = current;
    old.ending = true;
    for (const entry of old.pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(error);
    }
    old.pending.clear();
    restarts++;
    const started = Date.now();
    restarting = (async () => {
      await old.worker.terminate();
      closeFilesUnder(dataPath);
      const thread = startThread();
      current = thread;
      await thread.ready;
      for (const channel of channels.keys()) await send(thread, { op: 'listen', channel }, null);
      log(`The database thread was started again in ${Date.now() - started} ms (${error.message})`);
    })()
      .catch((startError: unknown) => {
        broken = startError instanceof Error ? startError : new Error(String(startError));
        log(`The database thread did not start again: ${broken.message}`);
      })
      .finally(() => {
        restarting = null;
        // Notifications sent meanwhile are lost: the listeners are told, as on a server.
        if (!broken) for (const resume of resumers) resume();
      });
  };

  /** `limit`: the statement's deadline in ms, or null for none. Counted as running until answered. */
  const send = (thread: Thread, message: Op & { tx?: number }, limit: number | null): Promise<unknown> => {
    running++;
    return new Promise((resolve, reject) => {
      const id = ++nextId;
      const entry: Pending = { resolve, reject };
      if (limit !== null) {
        entry.timer = setTimeout(() => {
          if (current === thread && !thread.ending) replace(new StatementTimeoutError());
        }, limit);
      }
      thread.pending.set(id, entry);
      thread.worker.postMessage({ id, ...message });
    }).finally(() => running--);
  };

  /** Runs `message` on the current thread once it is ready. */
  const run = async (message: Op, deadline: number | null): Promise<unknown> => {
    while (restarting) await restarting;
    if (stopped) throw stopped;
    if (broken) throw broken;
    const target = current;
    await target.ready;
    return send(target, message, deadline);
  };

  // One holder at a time: a statement, or a transaction from BEGIN to its end.
  let queue: Promise<unknown> = Promise.resolve();
  let queued = 0;
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new Error('The database is closed'));
    queued++;
    const result = queue.then(work, work).finally(() => queued--);
    queue = result.catch(() => {});
    return result;
  };

  const db: PGliteThreadDatabase = {
    kind: 'embedded',
    deadlineMs: null,
    anonDeadlineMs: null,
    get restarts() {
      return restarts;
    },
    get busy() {
      return !broken && (running > 0 || queued > 0 || restarting !== null);
    },
    get restarting() {
      return restarting !== null;
    },
    query: <T>(sql: string, params?: unknown[]) =>
      exclusive(() => run({ op: 'query', sql, params }, null) as Promise<QueryResult<T>>),
    exec: (sql: string) => exclusive(() => run({ op: 'exec', sql }, null)),
    transaction: <T>(work: (tx: Transaction) => Promise<T>, options?: TransactionOptions) =>
      exclusive(async () => {
        while (restarting) await restarting;
        if (stopped) throw stopped;
        if (broken) throw broken;
        const thread = current;
        await thread.ready;
        // Read when the transaction starts: a test may change `deadlineMs` between transactions.
        const deadline =
          typeof options?.deadline === 'number' ? options.deadline : options?.deadline ? db.deadlineMs : null;
        // Every step is posted as soon as it is asked for, without waiting for the answers before
        // it: the thread runs them in order, and each names its transaction (ADR 077).
        const id = ++nextTransaction;
        let ended = false;
        const post = (message: Op): Promise<unknown> => {
          if (ended) return Promise.reject(new Error('Transaction is closed'));
          if (stopped) return Promise.reject(stopped);
          if (thread.ending) return Promise.reject(new StatementTimeoutError());
          return send(thread, { ...message, tx: id }, deadline);
        };
        const begun = post({ op: 'begin' });
        begun.catch(() => {});
        const tx: Transaction = {
          query: async <R>(sql: string, params?: unknown[], queryOptions?: { last?: boolean }) => {
            const answer = post({ op: 'query', sql, params, last: queryOptions?.last });
            if (queryOptions?.last) ended = true;
            return (await answer) as QueryResult<R>;
          },
          exec: (sql: string) => post({ op: 'exec', sql }),
        };
        let result: T;
        try {
          result = await work(tx);
          await begun;
        } catch (error) {
          if (!ended && !thread.ending) await post({ op: 'rollback' }).catch(() => {});
          ended = true;
          // A transaction that did not begin fails with the reason, not with its statements' refusal.
          throw (
            (await begun.then(
              () => null,
              (beginError: unknown) => beginError,
            )) ?? error
          );
        }
        if (!ended) await post({ op: 'commit' });
        ended = true;
        return result;
      }),
    async listen(channel, handler, onResume) {
      const handlers = channels.get(channel) ?? new Set();
      const first = handlers.size === 0;
      handlers.add(handler);
      channels.set(channel, handlers);
      const resume = onResume ? () => onResume() : undefined;
      if (resume) resumers.add(resume);
      if (first) await exclusive(() => run({ op: 'listen', channel }, null));
      return async () => {
        handlers.delete(handler);
        if (resume) resumers.delete(resume);
        if (handlers.size === 0 && channels.get(channel) === handlers) {
          // Nothing is delivered from now on; the thread's UNLISTEN waits its turn without holding
          // the caller (a shutdown behind a long statement).
          channels.delete(channel);
          if (!closed) exclusive(() => run({ op: 'unlisten', channel }, null)).catch(() => {});
        }
      };
    },
    withSessionLock: (_key, work) => work(),
    dump: () => exclusive(() => run({ op: 'dump' }, null)) as Promise<Uint8Array>,
    whileAlone: (work) =>
      exclusive(() =>
        work({
          query: async <R>(sql: string, params?: unknown[]) =>
            (await run({ op: 'query', sql, params }, null)) as QueryResult<R>,
          exec: (sql: string) => run({ op: 'exec', sql }, null),
          dump: () => run({ op: 'dump' }, null) as Promise<Uint8Array>,
        }),
      ),
    async close() {
      if (closed) return;
      const last = exclusive(() => run({ op: 'close' }, null)).then(
        () => true,
        (error: unknown) => {
          log(`The database did not close cleanly: ${String(error)}`);
          return true;
        },
      );
      closed = true;
      let grace: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        last,
        new Promise<false>((resolve) => (grace = setTimeout(() => resolve(false), CLOSE_GRACE_MS))),
      ]);
      clearTimeout(grace);
      // Still running after the grace (a runaway statement, or work queued behind it): ended now,
      // as a crash would end it; what is committed is in the files.
      stopped = shutDownError();
      current.ending = true;
      for (const entry of current.pending.values()) {
        clearTimeout(entry.timer);
        entry.reject(stopped);
      }
      current.pending.clear();
      if (!finished) log('The database thread was still running a statement at shutdown: ended it');
      while (restarting) await restarting;
      current.ending = true;
      await current.worker.terminate();
      closeFilesUnder(dataPath);
      removeTemporary();
    },
  };
  return db;
}

/** Temporary data directories of in-memory databases not closed yet: removed when the process exits. */
const temporaryDirs = new Set<string>();

function rememberTemporary(dir: string) {
  if (temporaryDirs.size === 0 && !exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const left of temporaryDirs) rmSync(left, { recursive: true, force: true });
    });
  }
  temporaryDirs.add(dir);
}
let exitHookInstalled = false;

/**
 * Closes this process's descriptors of files under `dir` (Linux): those of a terminated thread's
 * PGlite, which the thread no longer can. Without /proc, nothing (a few descriptors leak per restart).
 */
function closeFilesUnder(dir: string) {
  let fds: string[];
  try {
    fds = readdirSync('/proc/self/fd');
  } catch {
    return;
  }
  const prefix = `${path.resolve(dir)}${path.sep}`;
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(prefix)) closeSync(Number(fd));
    } catch {
      // Gone meanwhile (the descriptor used to read the directory itself).
    }
  }
}
