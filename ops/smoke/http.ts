/**
 * The smoke check's only I/O: one request, its answer as the checks read it, or why there
 * was none in one line (no stack trace, no error object).
 */
import type { Answer } from './checks';

export class NoAnswer extends Error {
  override name = 'NoAnswer';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** What Node's network errors mean, by code. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed before an answer',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate is for another host',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate cannot be verified',
};

function reason(error: unknown, timeoutMs: number): string {
  const { name, cause } = error as { name?: string; cause?: { code?: string; message?: string } };
  if (name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  const code = cause?.code;
  if (code) return REASONS[code] ?? code;
  return cause?.message ?? (error as Error).message ?? String(error);
}

export interface Request {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Redirects are answers too: the checks report them rather than follow them. */
export async function request(req: Request, timeoutMs: number): Promise<Answer> {
  try {
    const response = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: Object.fromEntries(response.headers), body: bytes.toString('utf8'), bytes };
  } catch (error) {
    throw new NoAnswer(reason(error, timeoutMs));
  }
}
