import { EventEmitter } from 'node:events';
import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A request to this process's own routes, answered without a socket: the request and response
 * objects are handed to the app's router (Fastify `routing`), so the route, its hooks, validation and
 * authentication run exactly as they do for a request over HTTP. light-my-request (Fastify `inject`)
 * does the same with an emulated socket, an `IncomingMessage` and a whole `http.ServerResponse` that
 * formats the head as HTTP/1 text and parses it back: about a third of an in-memory GET's CPU.
 */
export interface LocalRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export interface LocalAnswer {
  statusCode: number;
  /** The headers Fastify set (lower-case names); not those an HTTP/1 socket adds (date, keep-alive). */
  headers: OutgoingHttpHeaders;
  body: string;
}

type Router = (request: IncomingMessage, response: ServerResponse) => void;

/** What Fastify reads of the socket: the peer address, as inject reports it. */
class LocalSocket extends EventEmitter {
  readonly remoteAddress = '127.0.0.1';
  readonly encrypted = false;
}

/** The incoming side: a readable stream of the payload with the fields of an `IncomingMessage` Fastify reads. */
class LocalIncoming extends Readable {
  readonly httpVersion = '1.1';
  readonly httpVersionMajor = 1;
  readonly httpVersionMinor = 1;
  readonly aborted = false;
  readonly socket = new LocalSocket();
  readonly headers: Record<string, string>;
  readonly rawHeaders: string[];
  readonly method: string;
  url: string;
  #payload: string | null;

  constructor(request: LocalRequest) {
    super({ autoDestroy: false });
    this.method = request.method;
    this.url = request.url;
    // The headers inject adds, so a route sees the same request either way.
    const headers: Record<string, string> = { 'user-agent': 'lightMyRequest', host: 'localhost:80' };
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
    if (request.payload !== undefined) headers['content-length'] ??= String(Buffer.byteLength(request.payload));
    this.headers = headers;
    this.rawHeaders = Object.entries(headers).flat();
    this.#payload = request.payload ?? null;
  }

  override _read(): void {
    if (this.#payload !== null) this.push(this.#payload);
    this.#payload = null;
    this.push(null);
  }
}

/**
 * The outgoing side: status, headers and body collected as the router writes them. Settles once,
 * on `finish` (the body ended) or on `close` before it (the response was destroyed), as inject does.
 */
class LocalOutgoing extends EventEmitter {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  writableEnded = false;
  writableFinished = false;
  destroyed = false;
  readonly socket: LocalSocket;
  readonly req: LocalIncoming;
  readonly #headers: OutgoingHttpHeaders = Object.create(null);
  readonly #chunks: Buffer[] = [];

  constructor(request: LocalIncoming, answered: (answer: LocalAnswer) => void, failed: (error: Error) => void) {
    super();
    this.req = request;
    this.socket = request.socket;
    let settled = false;
    this.once('finish', () => {
      settled = true;
      answered({
        statusCode: this.statusCode,
        headers: { ...this.#headers },
        body: Buffer.concat(this.#chunks).toString(),
      });
    });
    this.once('close', () => {
      if (!settled)
        failed(Object.assign(new Error('response destroyed before completion'), { code: 'LIGHT_ECONNRESET' }));
      settled = true;
    });
  }

  setHeader(name: string, value: OutgoingHttpHeader): this {
    this.#headers[name.toLowerCase()] = value;
    return this;
  }

  getHeader(name: string): OutgoingHttpHeader | undefined {
    return this.#headers[name.toLowerCase()];
  }

  getHeaders(): OutgoingHttpHeaders {
    return { ...this.#headers };
  }

  getHeaderNames(): string[] {
    return Object.keys(this.#headers);
  }

  hasHeader(name: string): boolean {
    return name.toLowerCase() in this.#headers;
  }

  removeHeader(name: string): void {
    delete this.#headers[name.toLowerCase()];
  }

  writeHead(statusCode: number, ...rest: (string | OutgoingHttpHeaders | undefined)[]): this {
    this.statusCode = statusCode;
    for (const part of rest) {
      if (typeof part === 'string') this.statusMessage = part;
      else if (part)
        for (const [name, value] of Object.entries(part)) if (value !== undefined) this.setHeader(name, value);
    }
    this.headersSent = true;
    return this;
  }

  write(chunk: string | Uint8Array, encoding?: BufferEncoding | (() => void), callback?: () => void): boolean {
    this.headersSent = true;
    this.#chunks.push(
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8')
        : Buffer.from(chunk),
    );
    const done = typeof encoding === 'function' ? encoding : callback;
    if (done) process.nextTick(done);
    return true;
  }

  end(
    chunk?: string | Uint8Array | (() => void),
    encoding?: BufferEncoding | (() => void),
    callback?: () => void,
  ): this {
    if (this.writableEnded) return this;
    if (typeof chunk === 'function') callback = chunk;
    else if (chunk !== undefined && chunk !== null)
      this.write(chunk, typeof encoding === 'string' ? encoding : undefined);
    if (typeof encoding === 'function') callback = encoding;
    this.headersSent = true;
    this.writableEnded = true;
    // As a socket's response does: 'finish' after the caller's current turn.
    process.nextTick(() => {
      this.writableFinished = true;
      this.emit('finish');
      callback?.();
      this.emit('close');
    });
    return this;
  }

  destroy(error?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    process.nextTick(() => {
      if (error) this.emit('error', error);
      this.emit('close');
    });
    return this;
  }

  addTrailers(): void {}

  writeEarlyHints(_hints: unknown, callback?: () => void): void {
    callback?.();
  }
}

/** One request through `router`, answered as inject answers it (status, the route's headers, the body as text). */
export function dispatchLocally(router: Router, request: LocalRequest): Promise<LocalAnswer> {
  return new Promise((answered, failed) => {
    const incoming = new LocalIncoming(request);
    const outgoing = new LocalOutgoing(incoming, answered, failed);
    // 'error' on a response with no listener would throw; the 'close' that follows settles the call.
    outgoing.on('error', () => {});
    router(incoming as unknown as IncomingMessage, outgoing as unknown as ServerResponse);
  });
}
