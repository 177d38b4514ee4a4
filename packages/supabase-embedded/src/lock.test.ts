import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * With a stale lock file, two servers started at the same moment once both came up.
 * Here real processes race for one data directory whose lock names a dead process: ten in the
 * reliability suite (`npm run test:reliability`), four in `npm test` (each one loads the backend).
 */
const RACERS = process.env.SECURITY_FULL === 'true' ? 10 : 4;
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Racer {
  child: ChildProcess;
  output: () => string;
  waitFor: (text: string) => Promise<void>;
}

function spawnRacer(dataDir: string): Racer {
  const child = spawn(process.execPath, ['tests/support/open-backend-child.js', dataDir], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const waiters: Array<() => void> = [];
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  child.on('exit', () => waiters.splice(0).forEach((wake) => wake()));
  const waitFor = async (text: string) => {
    while (!output.includes(text)) {
      if (child.exitCode !== null) throw new Error(`child exited before "${text}":\n${output}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { child, output: () => output, waitFor };
}

/** A pid that certainly names no process: one that has just exited. */
function deadPid(): number {
  const result = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(result.stdout.trim());
}

describe('the data directory lock', () => {
  it(`lets exactly one of ${RACERS} simultaneous starts take a stale lock; the others name it and stop`, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lock-race-'));
    dirs.push(dataDir);
    writeFileSync(path.join(dataDir, 'backend.lock'), String(deadPid()));

    const racers = Array.from({ length: RACERS }, () => spawnRacer(dataDir));
    await Promise.all(racers.map((racer) => racer.waitFor('READY')));
    for (const racer of racers) racer.child.stdin!.write('go\n'); // all at once

    const outcomes = await Promise.all(
      racers.map(async (racer) => {
        await Promise.race([racer.waitFor('OPENED'), racer.waitFor('FAILED')]).catch(() => {});
        return racer.output();
      }),
    );
    const winners = racers.filter((_, index) => outcomes[index]!.includes('OPENED'));
    expect(winners, outcomes.join('\n---\n')).toHaveLength(1);
    const winnerPid = winners[0]!.child.pid;
    const losers = outcomes.filter((output) => !output.includes('OPENED'));
    expect(losers).toHaveLength(RACERS - 1);
    for (const output of losers) {
      expect(output).toContain(`FAILED StartupError: The data directory ${dataDir} is in use by process ${winnerPid}`);
    }
    // No takeover file is left behind, and the winner stops cleanly and releases the lock.
    expect(readdirSync(dataDir).filter((name) => name.startsWith('backend.lock'))).toEqual(['backend.lock']);
    winners[0]!.child.stdin!.end();
    await new Promise((resolve) => winners[0]!.child.on('exit', resolve));
    expect(readdirSync(dataDir).filter((name) => name.startsWith('backend.lock'))).toEqual([]);
  }, 120_000);
});
