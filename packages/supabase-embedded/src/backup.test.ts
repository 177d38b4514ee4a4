/**
 * Restoring a backup refuses what `makeBackup` would never write (backup.ts, ADR 067): a file not
 * laid out as a backup, a Storage file too large, a path that climbs out of its bucket, a Storage
 * folder that holds files already; and what it wrote is gone afterwards. (A real backup restored
 * and started: tests/security/database-admin.test.ts.)
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKUP_FORMAT, restoreBackup } from './backup';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'backup-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const MANIFEST = JSON.stringify({
  format: BACKUP_FORMAT,
  createdAt: '2026-11-29T00:00:00Z',
  pglite: 'x',
  migrations: [],
  files: 0,
});

async function tarball(name: string, entries: Array<[string, Buffer | string]>): Promise<string> {
  const pack = tar.pack();
  for (const [entryName, content] of entries) pack.entry({ name: entryName }, content);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  const file = path.join(scratch, name);
  writeFileSync(file, gzipSync(Buffer.concat(chunks)));
  return file;
}

async function refusal(file: string, dataDir: string, storageDir?: string): Promise<string> {
  try {
    await restoreBackup(file, dataDir, { storageDir });
    return 'restored';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('restoreBackup', () => {
  it('refuses a Storage file before the manifest, and writes nothing', async () => {
    const file = await tarball('storage-first.tar.gz', [
      ['storage/agent-images/x.png', 'OVERWRITTEN'],
      ['backup.json', MANIFEST],
    ]);
    const storage = path.join(scratch, 'storage-first-files');
    expect(await refusal(file, path.join(scratch, 'one'), storage)).toContain('it does not start with backup.json');
    expect(existsSync(path.join(scratch, 'one'))).toBe(false);
    expect(existsSync(storage)).toBe(false);
  });

  it('refuses a Storage folder that holds files, and leaves them as they are', async () => {
    const live = path.join(scratch, 'live');
    mkdirSync(path.join(live, 'agent-images'), { recursive: true });
    writeFileSync(path.join(live, 'agent-images', 'live.png'), 'ORIGINAL');
    const file = await tarball('any.tar.gz', [['backup.json', MANIFEST]]);
    expect(await refusal(file, path.join(scratch, 'two'), live)).toContain(`${live} is not empty`);
    expect(readFileSync(path.join(live, 'agent-images', 'live.png'), 'utf8')).toBe('ORIGINAL');
  });

  it('refuses a Storage file over 10 MB, a path out of its bucket, and an unknown entry', async () => {
    const head: Array<[string, Buffer | string]> = [
      ['backup.json', MANIFEST],
      ['pgdata.tar', 'not a database'],
    ];
    const cases: Array<[string, Array<[string, Buffer | string]>, string]> = [
      ['large', [...head, ['storage/agent-images/big.png', Buffer.alloc(10 * 1024 * 1024 + 1)]], 'is no Storage file'],
      ['climbing', [...head, ['storage/agent-images/../../x.png', 'x']], 'Invalid key'],
      ['unknown', [...head, ['etc/passwd', 'x']], 'is no Storage file'],
      [
        'no database',
        [
          ['backup.json', MANIFEST],
          ['storage/a/b.png', 'x'],
        ],
        'pgdata.tar does not follow backup.json',
      ],
    ];
    for (const [label, entries, message] of cases) {
      const dataDir = path.join(scratch, `case-${label.replace(/ /g, '-')}`);
      const result = await refusal(await tarball(`${label}.tar.gz`, entries), dataDir);
      expect(result, label).toContain(message);
      expect(existsSync(dataDir), label).toBe(false);
    }
    expect(readdirSync(scratch).filter((name) => name === 'x.png')).toEqual([]);
  });
});
