import net from 'node:net';

/**
 * `count` distinct loopback ports nobody listens on right now (for processes that must be told their port).
 * All are held open until every one is chosen: ports taken one at a time, each released before the next,
 * can come back the same, and two processes told one port meet as one.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => net.createServer());
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  return ports;
}

/** One loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port;
}

/**
 * Sends `raw` bytes to a loopback port and reads what comes back until the server closes the connection:
 * for answers Node's HTTP parser makes before any route runs. The head comes back lower-cased.
 */
export async function rawExchange(
  port: number,
  raw: string,
): Promise<{ statusLine: string; head: string; problem: Record<string, unknown> }> {
  const answer = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
    socket.on('error', reject);
  });
  const [head, body] = answer.split('\r\n\r\n');
  return { statusLine: head.split('\r\n')[0], head: head.toLowerCase(), problem: JSON.parse(body) };
}
