/**
 * Files for listing agents in end-to-end tests: a real PNG of any size and colour, and a JSON
 * package manifest (the upload form checks both: the picture by its bytes, the package against
 * the agent package format).
 */
import { crc32, deflateSync } from 'node:zlib';

/** A real PNG: `size`×`size` pixels of one colour (signature, IHDR, IDAT, IEND, each with its CRC). */
export function png(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, default compression, filter, no interlace
  const row = Buffer.from([0, ...Array.from({ length: size }, () => rgb).flat()]); // filter byte "none"
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A package the upload form accepts: a JSON manifest in the agent package format (app/lib/agent-package.ts). */
export function manifest(name: string, version: string): Buffer {
  return Buffer.from(
    JSON.stringify({
      $schema: '/schemas/agent-package/v1.json',
      name,
      version,
      category: 'Sales',
      description: `${name} scores leads.`,
      instructions: `You are ${name}. Score each lead you are given from 0 to 100.`,
      tools: [
        {
          name: 'score_lead',
          description: 'Scores one lead.',
          input_schema: { type: 'object', properties: { company: { type: 'string' } }, required: ['company'] },
        },
      ],
      examples: [],
      configuration: { model_family: 'any chat model with tool calling', temperature: 0.2, max_tokens: 500 },
      readme: `# ${name}\n\nScores leads.\n`,
    }),
  );
}
