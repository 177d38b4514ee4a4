/** The machine a measurement ran on, recorded beside its figures (they only compare on one machine). */
import os from 'node:os';

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
    cores: cpus.length,
    memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    freeMemoryGiB: Number((os.freemem() / 2 ** 30).toFixed(1)),
    loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}
