/**
 * One file out of a ZIP archive, by its exact name, without a library: the end of central
 * directory record, the central directory's entry for the name, its local header, then the bytes
 * as stored or inflated (node:zlib) up to a limit, checked against their CRC-32. Enough for a
 * package's manifest (agent.json at the root); ZIP64, encryption and methods other than Stored
 * and Deflate are answered 'unsupported'. Never trusts a size or an offset it read: each is
 * checked against the archive's length before it is used.
 */
import { crc32, inflateRawSync } from 'node:zlib';

export type ZipEntry =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: 'unreadable' | 'missing' | 'duplicate' | 'unsupported' | 'too-large' };

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const END_RECORD_SIZE = 22;
const MAX_COMMENT = 0xffff;

function endOfDirectory(view: DataView): number {
  const last = view.byteLength - END_RECORD_SIZE;
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT; at -= 1) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) return at;
  }
  return -1;
}

/** The file `name` (exact, at the root when it has no slash) of the archive, at most `maxBytes`. */
export function readZipEntry(zip: Uint8Array, name: string, maxBytes: number): ZipEntry {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = endOfDirectory(view);
  if (end < 0) return { ok: false, reason: 'unreadable' };
  const entries = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  const directoryStart = view.getUint32(end + 16, true);
  if (entries === 0xffff || directoryStart === 0xffffffff) return { ok: false, reason: 'unsupported' };
  if (directoryStart + directorySize > end) return { ok: false, reason: 'unreadable' };

  const decoder = new TextDecoder();
  let at = directoryStart;
  let found = -1;
  for (let index = 0; index < entries; index += 1) {
    if (at + 46 > end || view.getUint32(at, true) !== DIRECTORY_ENTRY) return { ok: false, reason: 'unreadable' };
    const nameLength = view.getUint16(at + 28, true);
    const next = at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (next > end) return { ok: false, reason: 'unreadable' };
    if (decoder.decode(zip.subarray(at + 46, at + 46 + nameLength)) === name) {
      // Two files of one name: unzip tools differ on which wins, so what the page shows of the
      // package and what a buyer unpacks could differ. Refused.
      if (found >= 0) return { ok: false, reason: 'duplicate' };
      found = at;
    }
    at = next;
  }
  return found >= 0 ? entryBytes(zip, view, found, maxBytes) : { ok: false, reason: 'missing' };
}

function entryBytes(zip: Uint8Array, view: DataView, entry: number, maxBytes: number): ZipEntry {
  const flags = view.getUint16(entry + 8, true);
  const method = view.getUint16(entry + 10, true);
  const expectedCrc = view.getUint32(entry + 16, true);
  const compressedSize = view.getUint32(entry + 20, true);
  const size = view.getUint32(entry + 24, true);
  const local = view.getUint32(entry + 42, true);
  if (flags & 0x1 || (method !== 0 && method !== 8)) return { ok: false, reason: 'unsupported' };
  if (compressedSize === 0xffffffff || size === 0xffffffff) return { ok: false, reason: 'unsupported' };
  if (size > maxBytes) return { ok: false, reason: 'too-large' };
  if (local + 30 > zip.byteLength || view.getUint32(local, true) !== LOCAL_HEADER) {
    return { ok: false, reason: 'unreadable' };
  }
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  if (start + compressedSize > zip.byteLength) return { ok: false, reason: 'unreadable' };
  const stored = zip.subarray(start, start + compressedSize);
  let bytes: Uint8Array;
  try {
    bytes = method === 0 ? stored : inflateRawSync(stored, { maxOutputLength: maxBytes });
  } catch (error) {
    const tooLarge = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
    return { ok: false, reason: tooLarge ? 'too-large' : 'unreadable' };
  }
  if (bytes.byteLength !== size || crc32(bytes) !== expectedCrc) return { ok: false, reason: 'unreadable' };
  return { ok: true, bytes };
}
