/**
 * Agent packages for tests: a valid manifest in the agent package format (app/lib/agent-package.ts)
 * to change one field at a time, and a ZIP archive as a zip tool writes one (each file deflated or
 * stored, with its CRC-32, local headers, the central directory and its end record).
 */
import { crc32, deflateRawSync } from 'node:zlib';

/** A valid package (the format's every field), changed by `change`. */
export function validPackage(change: (value: Record<string, unknown>) => void = () => {}): Record<string, unknown> {
  const value: Record<string, unknown> = {
    $schema: '/schemas/agent-package/v1.json',
    name: 'Quote Checker',
    version: '1.0.0',
    category: 'Sales',
    description: 'Checks quotes before they go out.',
    instructions: 'You are Quote Checker. Check every quote against the price list.',
    tools: [
      {
        name: 'check_quote',
        description: 'Checks one quote.',
        input_schema: { type: 'object', properties: { quote_id: { type: 'string' } }, required: ['quote_id'] },
      },
    ],
    examples: [
      {
        title: 'A quote with a wrong discount',
        messages: [
          { role: 'user', content: 'Check quote Q-12.' },
          { role: 'assistant', content: 'Quote Q-12 gives 30% where the limit is 20%.' },
        ],
      },
    ],
    configuration: { model_family: 'gpt-4o class', temperature: 0.2, max_tokens: 800 },
    readme: '# Quote Checker\n',
  };
  change(value);
  return value;
}

/** A ZIP archive of `files` (name → bytes). */
export function zip(
  files: Record<string, Uint8Array>,
  { method = 8 }: { method?: 0 | 8 } = {},
): Uint8Array<ArrayBuffer> {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, bytes] of Object.entries(files)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const packed = method === 8 ? deflateRawSync(bytes) : Buffer.from(bytes);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6);
    header.writeUInt16LE(method, 8);
    header.writeUInt32LE(crc32(bytes), 14);
    header.writeUInt32LE(packed.length, 18);
    header.writeUInt32LE(bytes.length, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    locals.push(header, nameBytes, packed);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(method, 10);
    entry.writeUInt32LE(crc32(bytes), 16);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(bytes.length, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, nameBytes);
    offset += header.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}
