// The TCP sockets a process is listening on, read from /proc (Linux): the socket inodes among the
// process's open file descriptors, matched against the LISTEN rows of /proc/<pid>/net/tcp and tcp6.
// Reading the kernel's table (rather than asking each emulator) also finds listeners a library
// opens on its own.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

export interface ListeningSocket {
  address: string;
  port: number;
  family: 4 | 6;
}

const LISTEN = '0A';

function socketInodes(pid: number | 'self'): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      /* the descriptor closed while we listed them */
    }
  }
  return inodes;
}

/** /proc/net/tcp writes each 32-bit word of the address in host (little-endian) byte order. */
function decodeAddress(hex: string): { address: string; family: 4 | 6 } {
  const words = hex.match(/.{8}/g)!.map((w) => Buffer.from(w, 'hex').reverse());
  const bytes = Buffer.concat(words);
  if (bytes.length === 4) return { address: [...bytes].join('.'), family: 4 };
  const groups = Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2).toString(16));
  // IPv4-mapped (::ffff:a.b.c.d) is shown dotted, as node does.
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') {
    return { address: `::ffff:${[...bytes.subarray(12)].join('.')}`, family: 6 };
  }
  const text = groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
  return { address: text, family: 6 };
}

export function listeningSockets(pid: number | 'self' = 'self'): ListeningSocket[] {
  const inodes = socketInodes(pid);
  const out: ListeningSocket[] = [];
  for (const file of ['tcp', 'tcp6']) {
    let table = '';
    try {
      table = readFileSync(`/proc/${pid}/net/${file}`, 'utf8');
    } catch {
      continue; // no IPv6 in this kernel
    }
    for (const line of table.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== LISTEN || !inodes.has(cols[9]!)) continue;
      const [addrHex, portHex] = cols[1]!.split(':');
      out.push({ ...decodeAddress(addrHex!), port: parseInt(portHex!, 16) });
    }
  }
  return out;
}

export { isLoopbackHost as isLoopback } from '../../local/emulators/http-server';
