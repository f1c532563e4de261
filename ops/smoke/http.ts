/**
 * The smoke check's only I/O: one request, its answer as the checks read it, or why there was
 * none in one line (no stack trace, no error object). The outside check's own request
 * (lambda/src/outside-check/outside-check.ts), so both read a stage's answers, and its failures, the same way.
 */
import { NoAnswer, requestSite, type SiteRequest } from '@site/lambda/outside-check';
import type { Answer } from './checks';

export { NoAnswer };

export type Request = SiteRequest;

/** Redirects are answers too: the checks report them rather than follow them. */
export function request(req: Request, timeoutMs: number): Promise<Answer> {
  return requestSite(req, timeoutMs);
}
