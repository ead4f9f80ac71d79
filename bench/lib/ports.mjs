// Ports for the processes a benchmark starts, and waiting until they listen.
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';

/** `count` distinct free loopback ports below the kernel's ephemeral range, so no outgoing socket takes one first. */
export async function freePorts(count) {
  const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  const ceiling = Math.min(low ?? 32768, 32768) - 1;
  const ports = [];
  while (ports.length < count) {
    const port = 10000 + Math.floor(Math.random() * (ceiling - 10000));
    if (ports.includes(port)) continue;
    const free = await new Promise((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) ports.push(port);
  }
  return ports;
}

/** Resolves once something accepts connections on the loopback port; throws after `timeoutMs`. */
export async function waitForPort(port, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
}
