import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The socket inodes a process holds open (Linux /proc). */
function socketInodes(pid: number | 'self'): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]);
    } catch {
      // closed between the listing and the read
    }
  }
  return inodes;
}

function rows(file: string): string[][] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/));
}

/** What a process listens on: its TCP ports (IPv4 and IPv6) and its Unix socket paths. */
export function listeningSockets(pid: number | 'self'): { tcpPorts: number[]; unixPaths: string[] } {
  const mine = socketInodes(pid);
  const tcpListen = '0A';
  const tcpPorts = ['tcp', 'tcp6'].flatMap((proto) =>
    rows(`/proc/${pid}/net/${proto}`)
      .filter((cols) => cols[3] === tcpListen && mine.has(cols[9]))
      .map((cols) => parseInt(cols[1].split(':')[1], 16)),
  );
  const acceptsConnections = 0x10000;
  const unixPaths = rows(`/proc/${pid}/net/unix`)
    .filter((cols) => cols.length > 7 && (parseInt(cols[3], 16) & acceptsConnections) !== 0 && mine.has(cols[6]))
    .map((cols) => cols.slice(7).join(' '));
  return { tcpPorts, unixPaths };
}
