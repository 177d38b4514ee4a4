/**
 * The embedded database's thread (ADR 031): PGlite runs here, off the main thread, so that the
 * HTTP layer keeps answering while a statement runs, and a statement past its deadline can be
 * ended by terminating this thread (PGlite cannot interrupt itself). Plain JavaScript, loaded by
 * `node:worker_threads` from its file (packages/supabase-embedded/src/pglite-worker.js) in every mode: tests,
 * development and the built server.
 *
 * The main thread (packages/supabase-embedded/src/pglite-thread.ts) sends operations that this thread runs one
 * after another, in the order they came (ADR 077): a transaction's statements may come without
 * waiting for the answers before them. A transaction is PGlite's own `transaction()`, held open
 * between `begin` and `commit` or `rollback` (or a statement marked `last`), and its operations
 * carry its id: one that finds its transaction not open fails, so a statement meant for a
 * transaction never runs outside it.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';

/** The extensions the schema creates; keep in step with EXTENSIONS in database.ts (snapshot hash). */
const EXTENSIONS = { fuzzystrmatch, pgcrypto, pg_trgm, unaccent };

if (!parentPort) throw new Error('pglite-worker.js runs only as a worker thread');
const port = parentPort;

/** @type {{ dataPath: string | null, snapshotFile?: string }} */
const { dataPath, snapshotFile } = workerData;

/** @type {PGlite | undefined} */
let pglite;
/** The open transaction: its PGlite handle and how to end it. */
let open;
/** Channel → PGlite's unsubscribe. */
const listening = new Map();

const ROLLBACK = Symbol('rollback');

/** An error as plain data: its message, name and every field PGlite gives (code, detail, hint …). */
function serialiseError(error) {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error' };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === 'params' || key === 'queryOptions') continue;
    if (value === undefined || typeof value === 'function') continue;
    fields[key] = value;
  }
  return { ...fields, message: error.message, name: error.name, stack: error.stack };
}

/** Where an operation runs: its own transaction (`tx`, which must be the open one), else PGlite. */
function targetOf(tx) {
  if (tx === undefined) return open ? open.tx : pglite;
  if (open?.id !== tx) throw new Error('Transaction is not open');
  return open.tx;
}

const operations = {
  async query({ sql, params, tx, last }) {
    const target = targetOf(tx);
    if (!last) return target.query(sql, params);
    let result;
    try {
      result = await target.query(sql, params);
    } catch (error) {
      await operations.rollback();
      throw error;
    }
    await operations.commit();
    return result;
  },
  async exec({ sql, tx }) {
    await targetOf(tx).exec(sql);
    return null;
  },
  begin({ tx }) {
    if (open) throw new Error('A transaction is already open');
    return new Promise((resolve, reject) => {
      let end;
      const ended = new Promise((resolveEnd, rejectEnd) => {
        end = { resolveEnd, rejectEnd };
      });
      ended.catch(() => {});
      let entered = false;
      // PGlite calls the callback after BEGIN, asynchronously: `done` is assigned by then.
      const done = pglite.transaction(async (handle) => {
        entered = true;
        open = { id: tx, tx: handle, end, done };
        resolve(null);
        await ended;
      });
      done.catch((error) => {
        if (!entered) reject(error);
      });
    });
  },
  async commit({ tx } = {}) {
    const current = takeOpen(tx);
    current.end.resolveEnd();
    await current.done;
    return null;
  },
  async rollback({ tx } = {}) {
    const current = takeOpen(tx);
    current.end.rejectEnd(ROLLBACK);
    await current.done.catch((error) => {
      if (error !== ROLLBACK) throw error;
    });
    return null;
  },
  async listen({ channel }) {
    if (!listening.has(channel)) {
      const stop = await pglite.listen(channel, (payload) => port.postMessage({ notify: channel, payload }));
      listening.set(channel, stop);
    }
    return null;
  },
  async unlisten({ channel }) {
    const stop = listening.get(channel);
    listening.delete(channel);
    if (stop) await stop();
    return null;
  },
  /** The data directory as a tarball (a new database's snapshot, ADR 025). */
  async dump() {
    await pglite.exec('checkpoint');
    const tarball = await pglite.dumpDataDir('none');
    return new Uint8Array(await tarball.arrayBuffer());
  },
  async close() {
    await pglite.close();
    return null;
  },
};

function takeOpen(tx) {
  if (!open || (tx !== undefined && open.id !== tx)) throw new Error('No transaction is open');
  const current = open;
  open = undefined;
  return current;
}

async function start() {
  const loadDataDir = snapshotFile ? new Blob([readFileSync(snapshotFile)]) : undefined;
  pglite = await PGlite.create({ dataDir: dataPath ?? undefined, extensions: EXTENSIONS, loadDataDir });
}

const ready = start();
ready.then(
  () => port.postMessage({ ready: true }),
  (error) => port.postMessage({ ready: false, error: serialiseError(error) }),
);

/** One operation at a time, in the order they came. */
let turn = ready.catch(() => {});
port.on('message', (message) => {
  turn = turn.then(async () => {
    const { id, op } = message;
    try {
      await ready;
      const result = await operations[op](message);
      const transfer = result instanceof Uint8Array ? [result.buffer] : [];
      port.postMessage({ id, result }, transfer);
    } catch (error) {
      port.postMessage({ id, error: serialiseError(error) });
    }
  });
});
