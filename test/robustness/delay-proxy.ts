/**
 * An HTTP proxy on loopback that holds every request for `delayMs` before passing it on,
 * and can show the suite each request on the wire.
 *
 * Two uses:
 *  - A slow SES: put on SES's port with a delay longer than the handler's SES request
 *    timeout. It forwards each request after the delay EVEN IF the client has given up,
 *    because that is what a slow service does: it received the request and processes it;
 *    the caller merely stopped waiting for the answer. This is the case where "at most
 *    once" and "at least once" part ways, and the suite counts what actually arrives.
 *  - A wire tap (delay 0): the SES emulator's SendEmail schema keeps only `member.1` of
 *    every address list, so an injected second recipient would be invisible in its outbox.
 *    The proxy parses each SendEmail on the wire, where nothing has been dropped yet.
 *
 * HTTP-aware rather than a TCP splice on purpose: with keep-alive, a TCP proxy delays only
 * the connection, and requests reusing it would pass at full speed.
 */
import { request as httpRequest, createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { LOOPBACK } from '@site/emulators/connections';
import { closeServer, listen } from '@site/emulators/servers';

export interface ProxiedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface DelayProxyOptions {
  /** The port to take (SES's own, after it was stopped); 0 for any. */
  port: number;
  /** Where requests go, e.g. http://127.0.0.1:1234. */
  target: string;
  delayMs: number;
  inspect?: (request: ProxiedRequest) => void;
}

export interface DelayProxyStats {
  received: number;
  forwarded: number;
  /** The target answered, but the client had already hung up: work done, answer lost. */
  answeredAfterClientLeft: number;
  upstreamErrors: number;
}

export interface DelayProxy {
  url: string;
  port: number;
  stats: DelayProxyStats;
  /** Waits, at most `timeoutMs`, for every request held or in flight to finish. */
  drain(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

export async function startDelayProxy(options: DelayProxyOptions): Promise<DelayProxy> {
  const stats: DelayProxyStats = { received: 0, forwarded: 0, answeredAfterClientLeft: 0, upstreamErrors: 0 };
  const inFlight = new Set<Promise<void>>();
  const target = new URL(options.target);
  if (target.hostname !== LOOPBACK && target.hostname !== 'localhost') throw new Error('the proxy only forwards to loopback');

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      stats.received += 1;
      const proxied: ProxiedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      options.inspect?.(proxied);
      const client = { left: false };
      res.on('close', () => {
        if (!res.writableFinished) client.left = true;
      });
      const work = new Promise<void>((resolve) => setTimeout(resolve, options.delayMs)).then(() => {
        stats.forwarded += 1;
        return forward(proxied, target, res, client, stats);
      });
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    });
  });
  const port = await listen(server, options.port);

  const drain = async (timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (inFlight.size > 0 && Date.now() < deadline) {
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()))),
      ]);
    }
    return inFlight.size === 0;
  };

  return {
    url: `http://${LOOPBACK}:${port}`,
    port,
    stats,
    drain,
    async close() {
      await closeServer(server);
    },
  };
}

/**
 * Sends `proxied` on to `target` whether or not the client still waits, and passes the
 * answer back to a client that does. Resolves when the target has answered or failed.
 */
function forward(
  proxied: ProxiedRequest,
  target: URL,
  res: ServerResponse,
  client: { left: boolean },
  stats: DelayProxyStats,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const headers = { ...proxied.headers, host: target.host, connection: 'close' };
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: proxied.method, path: proxied.url, headers, agent: false },
      (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => body.push(chunk));
        answer.on('end', () => {
          if (client.left || res.destroyed) stats.answeredAfterClientLeft += 1;
          else {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
          }
          resolve();
        });
        answer.on('error', () => resolve());
      },
    );
    upstream.setTimeout(10_000, () => upstream.destroy(new Error('upstream timeout')));
    upstream.on('error', () => {
      stats.upstreamErrors += 1;
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(502);
        res.end();
      }
      resolve();
    });
    upstream.end(proxied.body);
  });
}

/** The addresses and subject of one SES v1 SendEmail, as sent (form-encoded query protocol). */
export interface WireSendEmail {
  source?: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject?: string;
}

export function parseSendEmail(request: ProxiedRequest): WireSendEmail | undefined {
  const form = new URLSearchParams(request.body.toString('utf8'));
  if (form.get('Action') !== 'SendEmail') return undefined;
  const list = (prefix: string) => [...form.keys()].filter((key) => key.startsWith(prefix)).map((key) => form.get(key)!);
  return {
    source: form.get('Source') ?? undefined,
    to: list('Destination.ToAddresses.member.'),
    cc: list('Destination.CcAddresses.member.'),
    bcc: list('Destination.BccAddresses.member.'),
    replyTo: list('ReplyToAddresses.member.'),
    subject: form.get('Message.Subject.Data') ?? undefined,
  };
}
