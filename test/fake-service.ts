import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in HTTP service whose behaviour a test sets per request: for fault injection on
 * service-to-service calls (timeouts, resets, bad bodies). It answers only on loopback.
 */
export type FakeBehaviour = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export interface FakeService {
  url: string;
  behave(behaviour: FakeBehaviour): void;
  requests: number;
  close(): Promise<void>;
}

export async function startFakeService(): Promise<FakeService> {
  let behaviour: FakeBehaviour = (_request, response) => response.writeHead(503).end();
  const state = { requests: 0 };
  const server = http.createServer((request, response) => {
    state.requests += 1;
    behaviour(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    behave(next) {
      behaviour = next;
    },
    get requests() {
      return state.requests;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(status: number, body: unknown): FakeBehaviour {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
}
