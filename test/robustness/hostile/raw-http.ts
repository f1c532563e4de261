/** A hostile case sent as raw bytes on a socket of its own, and what came back. */
import { connect } from 'node:net';
import { CLIENT_TIMEOUT_MS } from '../client';
import { newVisitor } from '../visitors';
import { buildBody, enc, type HostileCase } from './case';

export interface RawAnswer {
  /** 0 when no status line came back. */
  status: number;
  body: string;
  /** The Location header, if the answer had one. */
  location?: string;
  /** The Retry-After header, if the answer had one. */
  retryAfter?: string;
  ms: number;
  error?: string;
}

/** The request's bytes on the wire, framed as the case says. */
export function requestBytes(hostileCase: HostileCase, host: string): Buffer[] {
  const body = buildBody(hostileCase.body);
  const head = [
    enc(`${hostileCase.method} ${hostileCase.path} HTTP/1.1`),
    enc(`Host: ${host}`),
    enc('Connection: close'),
    ...hostileCase.headers,
  ];
  if (hostileCase.framing === 'chunked') {
    head.push(enc('Transfer-Encoding: chunked'));
    const half = Math.floor(body.length / 2);
    const chunk = (part: Buffer) => Buffer.concat([enc(`${part.length.toString(16)}\r\n`), part, enc('\r\n')]);
    return [
      Buffer.concat([...head.flatMap((line) => [line, enc('\r\n')]), enc('\r\n')]),
      chunk(body.subarray(0, half)),
      chunk(body.subarray(half)),
      enc('0\r\n\r\n'),
    ];
  }
  head.push(enc(`Content-Length: ${body.length}`));
  return [Buffer.concat([...head.flatMap((line) => [line, enc('\r\n')]), enc('\r\n')]), body];
}

/**
 * One request on its own connection, from a visitor of its own (visitors.ts) unless `from`
 * names the loopback address to send from; bounded by CLIENT_TIMEOUT_MS.
 */
export function sendRaw(port: number, chunks: Buffer[], from = newVisitor()): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const received: Buffer[] = [];
    let size = 0;
    let settled = false;
    const socket = connect({ host: '127.0.0.1', port, localAddress: from });
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const text = Buffer.concat(received).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      const split = text.indexOf('\r\n\r\n');
      const head = split >= 0 ? text.slice(0, split) : text;
      resolve({
        status,
        location: /\r\nlocation: ([^\r]*)/i.exec(head)?.[1],
        retryAfter: /\r\nretry-after: ([^\r]*)/i.exec(head)?.[1],
        body: split >= 0 ? Buffer.from(text.slice(split + 4), 'latin1').toString('utf8') : '',
        ms: performance.now() - started,
        error: status ? undefined : error,
      });
    };
    socket.setTimeout(CLIENT_TIMEOUT_MS, () => finish('timeout'));
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    socket.on('data', (data: Buffer) => {
      size += data.length;
      if (size < 256 * 1024) received.push(data);
    });
    socket.on('end', () => finish('closed without answer'));
    socket.on('close', () => finish('closed without answer'));
    // EPIPE/ECONNRESET after the server answered early (e.g. 413 before reading a big body) is fine.
    socket.on('error', (error: NodeJS.ErrnoException) => setTimeout(() => finish(error.code ?? error.message), 50));
  });
}
