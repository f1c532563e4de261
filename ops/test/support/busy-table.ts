/**
 * DynamoDB as a busy table in AWS answers an operator's command: an HTTP proxy in front of a
 * test's table that answers some writes with ProvisionedThroughputExceededException, as DynamoDB
 * throttles, holds others for longer than the functions' clients wait, as a slow write under
 * load does, and passes everything else through unchanged (signed requests included).
 */
import { randomUUID } from 'node:crypto';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOOPBACK, loopbackUrl } from '@site/emulators/connections';

/** The DynamoDB operations that write, by the name in a request's X-Amz-Target. */
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);

export interface Busy {
  /** Whether the write of this number (0 for the first) is throttled. */
  throttle: (write: number) => boolean;
  /** Whether it is held `stallMs` before it goes through. */
  stall: (write: number) => boolean;
  stallMs: number;
}

export interface BusyTable {
  /** DynamoDB's endpoint for the command. */
  url: string;
  /** Writes the table was asked for, those it throttled, and those it held. */
  counts: () => { writes: number; throttled: number; stalled: number };
  close: () => Promise<void>;
}

function throttle(response: ServerResponse): void {
  response.writeHead(400, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID() });
  response.end(
    JSON.stringify({
      __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
      message: 'The level of configured provisioned throughput for the table was exceeded.',
    }),
  );
}

export async function busyTable(upstream: string, busy: Busy): Promise<BusyTable> {
  const target = new URL(upstream);
  const counts = { writes: 0, throttled: 0, stalled: 0 };

  function forward(incoming: IncomingMessage, response: ServerResponse, body: Buffer): void {
    const outgoing = request(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    outgoing.on('error', () => response.destroy());
    outgoing.end(body);
  }

  async function answer(incoming: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void> {
    const operation = String(incoming.headers['x-amz-target'] ?? '')
      .split('.')
      .at(-1)!;
    if (WRITES.has(operation)) {
      const write = counts.writes++;
      if (busy.throttle(write)) {
        counts.throttled += 1;
        return throttle(response);
      }
      if (busy.stall(write)) {
        counts.stalled += 1;
        await sleep(busy.stallMs);
        // A client that stopped waiting has gone: its write never reaches the table.
        if (incoming.socket.destroyed) return;
      }
    }
    forward(incoming, response, body);
  }

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => void answer(incoming, response, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  return {
    url: loopbackUrl((server.address() as { port: number }).port),
    counts: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
