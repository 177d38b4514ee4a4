/**
 * A minimal SMTP server for tests: it speaks enough SMTP for nodemailer (EHLO, MAIL, RCPT, DATA,
 * QUIT), accepts every message and keeps its raw text, so the real SMTP path runs end to end.
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface SmtpSink {
  port: number;
  /** Each message's raw text (headers and body), in the order received. */
  messages: string[];
  /** With `{ held: true }`: lets the held greetings go (and greets later connections at once). */
  release(): void;
  close(): Promise<void>;
}

/**
 * Listens on a free port of 127.0.0.1. `held`: a mail server that is slow to answer — it greets
 * no client until `release()`, so a sender waiting for it waits too.
 */
export async function startSmtpSink(options: { held?: boolean } = {}): Promise<SmtpSink> {
  const messages: string[] = [];
  const sockets = new Set<Socket>();
  let held = options.held ?? false;
  const waiting: (() => void)[] = [];
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffer = '';
    let inData = false;
    let message = '';
    const reply = (line: string) => socket.write(`${line}\r\n`);
    const greet = () => reply('220 sink.test ESMTP');
    if (held) waiting.push(greet);
    else greet();
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            messages.push(message);
            message = '';
            reply('250 OK: queued');
          } else message += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') reply('250-sink.test\r\n250 8BITMIME');
        else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
        } else reply('250 OK');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    messages,
    release() {
      held = false;
      for (const greet of waiting.splice(0)) greet();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
