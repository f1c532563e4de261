/**
 * The attacks of issue 22, after the generated requests and inside the same wire tap, so the
 * phase's checks of the table, the outbox and the wire cover their messages too:
 *
 *   cross-site   posts another site's page makes a browser send (hidden form, script): refused
 *                (JSON 403, a form post to its Dutch page), nothing stored, counted or sent;
 *                the visitor's own posts, and clients that are no browser, still go through.
 *   form names   form bodies of 96 KB of names (repeated, distinct, bracketed): the check page
 *                at once, nothing stored; the most names the form may carry go through.
 *   forged SES   delivery events for an attempt never made or with another SES message id:
 *                not applied, counted as not ours; the next real event counts.
 *   invisible    names of only zero-width, direction or tag characters are empty (400); a name
 *                with a right-to-left override is stored and e-mailed without it.
 *   log paths    request paths that try to write a forged JSON line or a terminal escape into
 *                the stack's log: one escaped access line each, nothing forged.
 *   /48 sweeps   IPv6 posts from many /64s of one /48 (one subscriber): accepted up to the /48's
 *                cap, then 429 from every fresh /64 of it; one /64 keeps its own limit; another
 *                /48 is another subscriber. Loopback has no IPv6 networks, so these go through
 *                the edge's handling without a socket (postFromViewer in local/src/edge.ts).
 *   stall        DynamoDB slower than the function waits for: every post answered 503 and
 *                nothing lost; once DynamoDB is back, a retry of the same message goes
 *                through and the visitor still has the whole allowance.
 *
 * Each part is deterministic (no sampling): these are fixed attacks with fixed answers.
 */
import { randomUUID } from 'node:crypto';
import { ipv6NetworkLimitFrom, visitorLimitFrom } from '@site/core/node/deploy-config';
import { windowAt } from '@site/lambda/visitor-limit';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import {
  API_PATH,
  FORM_CONTENT_TYPE,
  FORM_RESULT_PAGES,
  HONEYPOT_FIELD,
  IDEMPOTENCY_HEADER,
  MAX_FORM_BODY_BYTES,
  maxFormParameters,
} from '@site/core/contract';
import { VIEWER_HOST_HEADER, VIEWER_SCHEME_HEADER } from '@site/core/api-origin';
import { AWS_CLIENT_OPTIONS } from '@site/lambda/aws';
import { FUNCTION_TIMEOUT_SECONDS } from '@site/core/function-limits';
import { decodeWords } from 'postal-mime';
import { hasInvisible } from '@site/lambda/characters';
import { DELIVERY_EVENT_LOG } from '@site/core/log-lines';
import { sesEvent, sesMessageId } from '@site/testing/ses-events';
import type { SuiteContext } from '../context';
import { validMessage } from '../contact-fields';
import { startDelayProxy } from '../delay-proxy';
import { scanTable, sentEmails } from '../verify';
import { newVisitor, wellInsideAWindow } from '../visitors';
import { enc, header, objectText, type HostileCase } from './case';
import { FORM_HEADERS, FORM_NAME_SHAPES, formBodyOf } from './form-attacks';
import { requestBytes, sendRaw, type RawAnswer } from './raw-http';

export const ABUSE_AREA = 'hostile input: abuse';

/** What the attacks send: one request, from `from` (a visitor of its own when not given). */
type Send = (request: Omit<HostileCase, 'index' | 'kind' | 'variant' | 'expect' | 'framing'>, from?: string) => Promise<RawAnswer>;

/** A page on another site, and a sibling of the site's host, as a browser names them. */
const EVIL = 'https://evil.example';

/** The scheme the site is not served over (`https:` for the local edge's `http:`), with its colon. */
const otherScheme = (site: URL) => (site.protocol === 'http:' ? 'https:' : 'http:');

export async function abuseAttacks(ctx: SuiteContext): Promise<void> {
  const site = new URL(ctx.site);
  const send: Send = (request, from) =>
    sendRaw(
      Number(site.port),
      requestBytes({ ...request, index: -1, kind: 'abuse', variant: '', expect: [], framing: 'content-length' }, site.host),
      from,
    );
  const own = { origin: `${site.protocol}//${site.host}`, fetchSite: 'same-origin' };
  await crossSitePosts(ctx, send, own);
  await formBodies(ctx, send);
  await forgedDeliveryEvents(ctx);
  await invisibleNames(ctx, send);
  await forgedLogPaths(ctx, send);
  await ipv6Sweeps(ctx, own);
  await retryAfterAtTheLimit(ctx, send, own);
  await stalledDynamoDb(ctx, send, own);
}

/** The limit the stack counts with, or 0 when the run had to turn it off (visitors.ts). */
function visitorLimit(): number {
  return newVisitor() === undefined ? 0 : visitorLimitFrom(CDK_JSON_CONTEXT).messages;
}

const jsonBody = (marker: string) => enc(objectText(validMessage(marker)));
const formBody = (marker: string) => enc(new URLSearchParams(validMessage(marker)).toString());

/** Where a browser says a post comes from. */
interface FromPage {
  origin?: string;
  fetchSite?: string;
  referer?: string;
}

function browserHeaders(contentType: string, site: FromPage, extra: Buffer[] = []): Buffer[] {
  return [
    header('Content-Type', contentType),
    ...(site.origin === undefined ? [] : [header('Origin', site.origin)]),
    ...(site.fetchSite === undefined ? [] : [header('Sec-Fetch-Site', site.fetchSite)]),
    ...(site.referer === undefined ? [] : [header('Referer', site.referer)]),
    ...extra,
  ];
}

/** Every stored item and e-mail that carries one of `markers`. */
async function keptWith(ctx: SuiteContext, markers: readonly string[]): Promise<{ stored: number; mailed: number }> {
  const carries = (text: string) => markers.some((marker) => text.includes(marker));
  const { messages } = await scanTable(ctx.ready.urls.dynamodb, ctx.ready.tableName);
  const emails = await sentEmails(ctx.ready.urls.ses);
  return {
    stored: messages.filter((item) => carries(JSON.stringify(item))).length,
    mailed: emails.filter((email) => carries(`${email.body.text ?? ''}${email.body.html ?? ''}`)).length,
  };
}

async function crossSitePosts(ctx: SuiteContext, send: Send, own: { origin: string; fetchSite: string }): Promise<void> {
  const { report, runTag } = ctx;
  const site = new URL(ctx.site);
  // [what the attacking page makes the browser send, JSON or form, the answer it must get]
  const attacks: [string, FromPage, Buffer[], 'json' | 'form'][] = [
    ['hidden form, current browser', { origin: EVIL, fetchSite: 'cross-site' }, [], 'form'],
    ['hidden form, older browser (Origin only)', { origin: EVIL }, [], 'form'],
    ['sandboxed frame (Origin null)', { origin: 'null' }, [], 'form'],
    ['look-alike host', { origin: `http://${site.host}.evil.example` }, [], 'form'],
    ['script, current browser', { origin: EVIL, fetchSite: 'cross-site' }, [], 'json'],
    ['sibling subdomain', { origin: `http://blog.${site.hostname}:${site.port}`, fetchSite: 'same-site' }, [], 'json'],
    ['Sec-Fetch-Site only', { fetchSite: 'cross-site' }, [], 'json'],
    ['forged X-Viewer-Host', { origin: EVIL }, [header(VIEWER_HOST_HEADER, 'evil.example')], 'json'],
    ['oldest browsers (Referer only)', { referer: `${EVIL}/form.html` }, [], 'form'],
    ['an address for a Referer', { referer: 'not an address' }, [], 'form'],
    ['the same host over the other scheme', { origin: `${otherScheme(site)}//${site.host}` }, [], 'json'],
    [
      'the same host over the other scheme, forging the viewer scheme',
      { origin: `${otherScheme(site)}//${site.host}` },
      [header(VIEWER_SCHEME_HEADER, otherScheme(site).slice(0, -1))],
      'json',
    ],
  ];
  const limit = visitorLimit();
  const victim = newVisitor();
  const markers: string[] = [];
  const wrong: string[] = [];
  // More posts than the visitor's limit, all from the one victim's browser.
  const rounds = Math.max(1, Math.ceil((limit + 1) / attacks.length));
  for (let round = 0; round < rounds; round += 1) {
    for (const [variant, from, extra, format] of attacks) {
      const marker = `RX${runTag}N${markers.length}`;
      markers.push(marker);
      const type = format === 'json' ? 'application/json' : FORM_CONTENT_TYPE;
      const body = format === 'json' ? jsonBody(marker) : formBody(marker);
      const answer = await send({ method: 'POST', path: API_PATH, headers: browserHeaders(type, from, extra), body }, victim);
      const refused =
        format === 'json'
          ? answer.status === 403 && /"error":"[^"]+"/.test(answer.body)
          : answer.status === 303 && answer.location === FORM_RESULT_PAGES.crossSite;
      if (!refused) wrong.push(`${variant}: ${answer.status} ${answer.location ?? ''}`.trim());
    }
  }
  report.check(
    ABUSE_AREA,
    `cross-site posts refused: JSON 403, a form post to ${FORM_RESULT_PAGES.crossSite} (${markers.length} posts)`,
    wrong.length === 0,
    wrong.slice(0, 4).join('; ') || 'all',
  );
  const kept = await keptWith(ctx, markers);
  report.check(
    ABUSE_AREA,
    'cross-site posts: nothing stored, nothing e-mailed',
    kept.stored === 0 && kept.mailed === 0,
    `${kept.stored} stored, ${kept.mailed} e-mailed`,
  );

  // The victim's allowance is untouched, and the site's own posts and clients without a browser still work.
  const ownJson = await send(
    { method: 'POST', path: API_PATH, headers: browserHeaders('application/json', own), body: jsonBody(`RX${runTag}OWNJ`) },
    victim,
  );
  const ownForm = await send(
    { method: 'POST', path: API_PATH, headers: browserHeaders(FORM_CONTENT_TYPE, own), body: formBody(`RX${runTag}OWNF`) },
    victim,
  );
  const olderOwn = await send(
    {
      method: 'POST',
      path: API_PATH,
      headers: browserHeaders(FORM_CONTENT_TYPE, { referer: `${own.origin}/` }),
      body: formBody(`RX${runTag}OLDF`),
    },
    victim,
  );
  const noBrowser = await send({
    method: 'POST',
    path: API_PATH,
    headers: browserHeaders('application/json', {}),
    body: jsonBody(`RX${runTag}CURL`),
  });
  for (const answer of [ownJson, noBrowser]) acceptId(ctx, answer);
  // A form post is told no id: the ledger takes the one it was stored under, so the last phase checks its e-mail too.
  const { messages } = await scanTable(ctx.ready.urls.dynamodb, ctx.ready.tableName);
  for (const item of messages.filter((stored) => [`RX${runTag}OWNF`, `RX${runTag}OLDF`].some((m) => JSON.stringify(stored).includes(m)))) {
    ctx.ledger.accept({ id: item.id, phase: 'hostile' });
  }
  report.check(
    ABUSE_AREA,
    `after ${markers.length} cross-site posts (limit ${limit || 'off'}) the visitor's own JSON and form posts go through (an older browser's by its Referer), and so does a client without Origin`,
    ownJson.status === 200 &&
      ownForm.status === 303 &&
      ownForm.location === FORM_RESULT_PAGES.sent &&
      olderOwn.location === FORM_RESULT_PAGES.sent &&
      noBrowser.status === 200,
    `own JSON ${ownJson.status}, own form ${ownForm.status} ${ownForm.location ?? ''}, older browser's ${olderOwn.location ?? olderOwn.status}, no browser ${noBrowser.status}`,
  );
}

/**
 * Form bodies of names, one of each shape at the form limit (form-attacks.ts): each sent on
 * to the check page within the function's time, nothing stored or e-mailed. And the valid
 * message with every name the form may carry (its fields, the honeypot and the margin), which
 * goes through.
 */
async function formBodies(ctx: SuiteContext, send: Send): Promise<void> {
  const { report, runTag } = ctx;
  const markers: string[] = [];
  const wrong: string[] = [];
  let slowestMs = 0;
  for (const [shape, part] of Object.entries(FORM_NAME_SHAPES)) {
    const marker = `RF${runTag}N${markers.length}`;
    markers.push(marker);
    const body = formBodyOf(marker, part, MAX_FORM_BODY_BYTES);
    const answer = await send({ method: 'POST', path: API_PATH, headers: FORM_HEADERS, body });
    slowestMs = Math.max(slowestMs, answer.ms);
    if (answer.status !== 303 || answer.location !== FORM_RESULT_PAGES.check)
      wrong.push(`${shape}: ${answer.status} ${answer.location ?? ''}`);
  }
  const kept = await keptWith(ctx, markers);
  report.check(
    ABUSE_AREA,
    `form bodies of ${MAX_FORM_BODY_BYTES / 1024} KB of names (${markers.length} shapes): the check page within the function's time, nothing stored or e-mailed`,
    wrong.length === 0 && kept.stored === 0 && kept.mailed === 0 && slowestMs < FUNCTION_TIMEOUT_SECONDS * 1000,
    `${wrong.join('; ') || 'all to the check page'}; slowest ${Math.round(slowestMs)} ms; ${kept.stored} stored, ${kept.mailed} e-mailed`,
  );

  const marker = `RF${runTag}MOST`;
  const own: [string, string][] = [...validMessage(marker), [HONEYPOT_FIELD, '']];
  const extra = Array.from({ length: maxFormParameters() - own.length }, (_, i): [string, string] => [`extra${i}`, 'x']);
  const answer = await send({
    method: 'POST',
    path: API_PATH,
    headers: FORM_HEADERS,
    body: enc(new URLSearchParams([...own, ...extra]).toString()),
  });
  // A form post is told no id: the ledger takes the one it was stored under.
  const { messages } = await scanTable(ctx.ready.urls.dynamodb, ctx.ready.tableName);
  const stored = messages.filter((item) => JSON.stringify(item).includes(marker));
  for (const item of stored) ctx.ledger.accept({ id: item.id, phase: 'hostile' });
  report.check(
    ABUSE_AREA,
    `a valid form post with the most names the form may carry (${maxFormParameters()}) goes through, stored once`,
    answer.status === 303 && answer.location === FORM_RESULT_PAGES.sent && stored.length === 1,
    `${answer.status} ${answer.location ?? ''}; ${stored.length} stored`,
  );
}

/**
 * SES events forged for a message the phase stored and e-mailed, as the consumer would get
 * them through EventBridge: a bounce of an attempt never made (999999), and one of the
 * message's own attempt with another SES message id. Neither is applied; the message keeps
 * what its real events report, and the next real one still counts.
 */
async function forgedDeliveryEvents(ctx: SuiteContext): Promise<void> {
  const { report, stack } = ctx;
  const { messages } = await scanTable(ctx.ready.urls.dynamodb, ctx.ready.tableName);
  const message = messages.find((item) => item.status === 'emailed' && ctx.ledger.accepted.has(item.id));
  if (message === undefined) {
    report.check(ABUSE_AREA, 'forged delivery events: a message to forge them for', false, 'no e-mailed message stored by this phase');
    return;
  }
  const own = { messageId: message.id, attempt: Number(message.attempts), sesMessageId: String(message.sesMessageId) };
  /** What the consumer logged it did with the event; its line comes on the child's output, maybe after the command's reply. */
  const outcomeOf = async (event: unknown) => {
    const before = stack.logs.length;
    await stack.call('deliveryEvent', { event });
    const line = () => stack.logs.slice(before).find((entry) => entry.msg === DELIVERY_EVENT_LOG.msg);
    for (const deadline = Date.now() + 5_000; line() === undefined && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return line()?.outcome;
  };
  const outcomes = [
    await outcomeOf(sesEvent('Email Delivered', own)),
    await outcomeOf(sesEvent('Email Bounced', { ...own, attempt: 999_999 })),
    await outcomeOf(sesEvent('Email Bounced', { ...own, sesMessageId: sesMessageId() })),
  ];
  const afterForgeries = (await scanTable(ctx.ready.urls.dynamodb, ctx.ready.tableName)).messages.find((item) => item.id === message.id);
  const nextReal = await outcomeOf(sesEvent('Email Complaint Received', own));
  report.check(
    ABUSE_AREA,
    'forged delivery events (an attempt never made, another SES message id) are counted as not ours and change nothing; the next real one counts',
    JSON.stringify(outcomes) === JSON.stringify(['recorded', 'not_our_attempt', 'not_our_attempt']) &&
      afterForgeries?.status === 'delivered' &&
      nextReal === 'recorded',
    `${outcomes.join(', ')}; then ${String(afterForgeries?.status)}; the next real event ${String(nextReal)}`,
  );
}

/** Records an accepted message in the ledger, so the last phase checks it was stored and e-mailed. */
function acceptId(ctx: SuiteContext, answer: RawAnswer): string | undefined {
  if (answer.status !== 200) return undefined;
  const id = (JSON.parse(answer.body) as { id?: string }).id;
  if (id) ctx.ledger.accept({ id, phase: 'hostile' });
  return id;
}

/** A valid message with `name` as its name. */
const withName = (name: string, marker: string) =>
  enc(objectText(validMessage(marker).map(([field, value]): [string, string] => [field, field === 'name' ? name : value])));

async function invisibleNames(ctx: SuiteContext, send: Send): Promise<void> {
  const { report, runTag } = ctx;
  const empty = [
    '\u200B\u200B\u200B',
    '\u200C\u200D\u2060\uFEFF',
    '\u202A\u202B\u202C\u202D\u202E',
    '\u2066\u2067\u2068\u2069\u200E\u200F',
    '\u{E0041}\u{E0042}\u{E007F}',
    ' \u200B\t\u2060 ',
    // Blank look-alikes: the braille blank, the Hangul fillers, the interlinear annotation characters, spaces beside them.
    '\u2800\u2800',
    '\u3164',
    '\u3164\u2800',
    '\uFFA0\u115F\u1160',
    '\uFFF9\uFFFA\uFFFB',
    '\u2000\u3000\u2800\u200A',
  ];
  const wrong: string[] = [];
  for (const [i, name] of empty.entries()) {
    const answer = await send({
      method: 'POST',
      path: API_PATH,
      headers: [header('Content-Type', 'application/json')],
      body: withName(name, `RI${runTag}E${i}`),
    });
    let fields: Record<string, unknown> = {};
    try {
      fields = (JSON.parse(answer.body) as { fields?: Record<string, unknown> }).fields ?? {};
    } catch {
      // Not JSON: counted as wrong below.
    }
    if (answer.status !== 400 || typeof fields.name !== 'string') wrong.push(`#${i}: ${answer.status}`);
  }
  report.check(
    ABUSE_AREA,
    `a name of only invisible characters is empty: 400 naming the field (${empty.length} names)`,
    wrong.length === 0,
    wrong.join('; ') || 'all',
  );

  // "Jan <RLO>gnp.exe<PDF> Test" would show as "Jan exe.png Test" in the firm's mail client.
  const marker = `RI${runTag}RLO`;
  const answer = await send({
    method: 'POST',
    path: API_PATH,
    headers: [header('Content-Type', 'application/json')],
    body: withName('Jan \u202Egnp.exe\u202C Test', marker),
  });
  const id = acceptId(ctx, answer);
  const { messages } = await scanTable(ctx.ready.urls.dynamodb, ctx.ready.tableName);
  const stored = messages.find((item) => item.id === id);
  const subjects = (await sentEmails(ctx.ready.urls.ses))
    .filter((email) => (email.body.text ?? '').includes(marker))
    // As the firm's mail client reads it: a subject that is not plain ASCII goes as encoded words.
    .map((email) => decodeWords(email.subject ?? ''));
  report.check(
    ABUSE_AREA,
    'a name with a right-to-left override: stored in the order typed, without it, and no invisible character in the subject',
    answer.status === 200 && stored?.name === 'Jan gnp.exe Test' && subjects.length === 1 && !hasInvisible(subjects[0]!),
    `${answer.status}; stored ${JSON.stringify(stored?.name)}; ${subjects.length} e-mail(s)`,
  );
}

async function forgedLogPaths(ctx: SuiteContext, send: Send): Promise<void> {
  const { report, runTag, stack } = ctx;
  const forged = `forged-${runTag}`;
  const line = encodeURIComponent(JSON.stringify({ level: 'info', msg: forged, outcome: 'stored_and_emailed' }));
  const paths = [
    `/x%0a${line}%1b[2J`,
    `/x%0d%0a${line}%0d%0a`,
    `${API_PATH}%0a${line}`,
    `/x%E2%80%A8${line}%C2%9B2J%E2%80%AEgnp.exe`,
    `/x%1b]0;${forged}%07`,
  ];
  const before = stack.accessLines.length;
  const statuses: number[] = [];
  for (const path of paths) statuses.push((await send({ method: 'GET', path, headers: [], body: Buffer.alloc(0) })).status);
  // The access line is written once the answer is out: give the child's output a moment to arrive.
  const deadline = Date.now() + 5_000;
  while (stack.accessLines.slice(before).filter((text) => text.includes(forged)).length < paths.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const logged = stack.accessLines.slice(before).filter((text) => text.includes(forged));
  const forgedEntries = stack.logs.filter((entry) => entry.msg === forged).length;
  // eslint-disable-next-line no-control-regex -- the characters a forged line or a terminal escape needs
  const unsafe = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]|\p{Default_Ignorable_Code_Point}/u;
  const unsafeLines = [...stack.accessLines, ...stack.otherLines].filter((text) => unsafe.test(text)).length;
  report.check(
    ABUSE_AREA,
    `forged log paths: one escaped access line each, no forged entry, no control character in any log line (${paths.length} paths)`,
    statuses.every((status) => status > 0 && status < 500) &&
      logged.length === paths.length &&
      forgedEntries === 0 &&
      unsafeLines === 0 &&
      !stack.otherLines.some((text) => text.includes(forged)),
    `statuses ${statuses.join('/')}; ${logged.length} access lines; ${forgedEntries} forged entries; ${unsafeLines} lines with control characters`,
  );
}

async function ipv6Sweeps(ctx: SuiteContext, own: { origin: string; fetchSite: string }): Promise<void> {
  const { report, runTag, stack } = ctx;
  const limit = visitorLimit();
  const networkLimit = limit === 0 ? 0 : ipv6NetworkLimitFrom(CDK_JSON_CONTEXT, limit);
  const headers = { 'content-type': 'application/json', origin: own.origin, 'sec-fetch-site': own.fetchSite, host: new URL(ctx.site).host };
  let n = 0;
  const post = async (address: string) => {
    const marker = `R6${runTag}N${(n += 1)}`;
    const answer = await stack.call('postFromViewer', { address, port: 40_000 + n, headers, body: objectText(validMessage(marker)) });
    acceptId(ctx, { ...answer, ms: 0 });
    return answer.status;
  };
  const expected = (accepted: number, refused: number) =>
    limit === 0 ? Array<number>(accepted + refused).fill(200) : [...Array<number>(accepted).fill(200), ...Array<number>(refused).fill(429)];
  const same = (a: number[], b: number[]) => JSON.stringify(a) === JSON.stringify(b);

  // One /64: its own limit, whichever of its addresses sends.
  // With the limit off (visitors.ts) the same posts must all be accepted.
  const perNetwork = limit || 3;
  const perSweep = networkLimit || 3;
  await wellInsideAWindow(30);
  const oneNetwork = [];
  for (let i = 1; i <= perNetwork + 2; i += 1) oneNetwork.push(await post(`2001:db8:6464:1::${i.toString(16)}`));
  // A sweep through the /64s of one /48, one message each.
  const sweep = [];
  for (let subnet = 0; subnet < perSweep + 3; subnet += 1) sweep.push(await post(`2001:db8:4848:${subnet.toString(16)}::1`));
  const otherSubscriber = await post('2001:db8:4849::1');
  report.check(
    ABUSE_AREA,
    `IPv6: one /64 gets ${limit || 'no limit'}, a sweep of one /48's /64s gets ${networkLimit || 'no limit'} in all, another /48 is another subscriber`,
    same(oneNetwork, expected(perNetwork, 2)) && same(sweep, expected(perSweep, 3)) && otherSubscriber === 200,
    `/64: ${oneNetwork.join(' ')}; /48 sweep: ${sweep.join(' ')}; other /48: ${otherSubscriber}`,
  );
}

/**
 * A visitor at the limit whose messages were all stored is told the window's end, the one
 * moment a place frees, and asked again seconds later the same moment; never more than the
 * limit page's longest wait, one window.
 */
async function retryAfterAtTheLimit(ctx: SuiteContext, send: Send, own: { origin: string; fetchSite: string }): Promise<void> {
  const { report, runTag } = ctx;
  const limit = visitorLimit();
  if (limit === 0) {
    report.check(ABUSE_AREA, 'Retry-After at the limit', true, 'the run turned the limit off (visitors.ts): nothing to check');
    return;
  }
  const { windowMinutes } = visitorLimitFrom(CDK_JSON_CONTEXT);
  await wellInsideAWindow(30);
  const visitor = newVisitor();
  const post = (marker: string) =>
    send({ method: 'POST', path: API_PATH, headers: browserHeaders('application/json', own), body: jsonBody(marker) }, visitor);
  for (let i = 0; i < limit; i += 1) acceptId(ctx, await post(`RR${runTag}N${i}`));
  /** The seconds a refusal names, and the moment it names by this machine's clock (the stack's). */
  const refusal = async (marker: string) => {
    const answer = await post(marker);
    // Accepted where it should not have been, it is still a stored message the check below reports.
    acceptId(ctx, answer);
    const seconds = Number(answer.retryAfter);
    return { status: answer.status, seconds, moment: Date.now() / 1000 + seconds };
  };
  const first = await refusal(`RR${runTag}A`);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const second = await refusal(`RR${runTag}B`);
  const windowEnd = windowAt(new Date(), windowMinutes * 60).endsAt;
  report.check(
    ABUSE_AREA,
    `Retry-After at the limit names the window's end, the same moment when asked again, never past the page's ${windowMinutes} minutes`,
    first.status === 429 &&
      second.status === 429 &&
      Math.abs(first.moment - second.moment) <= 2 &&
      Math.abs(second.moment - windowEnd) <= 2 &&
      first.seconds <= windowMinutes * 60,
    `${first.status} ${first.seconds} s, 2 s later ${second.status} ${second.seconds} s; the window ends in ${Math.round(windowEnd - Date.now() / 1000)} s`,
  );
}

/** Longer than DynamoDB calls are waited for, so every call times out and lands afterwards. */
const STALL_MS = AWS_CLIENT_OPTIONS.requestHandler.requestTimeout + 1_000;

async function stalledDynamoDb(ctx: SuiteContext, send: Send, own: { origin: string; fetchSite: string }): Promise<void> {
  const { report, runTag, stack, ready } = ctx;
  const limit = visitorLimit();
  await wellInsideAWindow(60);
  const visitor = newVisitor();
  const key = randomUUID();
  const post = (marker: string, withKey = false) =>
    send(
      {
        method: 'POST',
        path: API_PATH,
        headers: browserHeaders('application/json', own, withKey ? [header(IDEMPOTENCY_HEADER, key)] : []),
        body: jsonBody(marker),
      },
      visitor,
    );

  const backend = await stack.call('startDynamoDbBackend', undefined);
  const proxy = await startDelayProxy({ port: Number(new URL(ready.urls.dynamodb).port), target: backend.url, delayMs: STALL_MS });
  let stalled: RawAnswer[];
  try {
    // One with a key (its claim lands late), two without (their counts and releases land late).
    stalled = await Promise.all([post(`RS${runTag}K`, true), post(`RS${runTag}A`), post(`RS${runTag}B`)]);
    await proxy.drain(30_000);
  } finally {
    await proxy.close();
    await stack.call('stopDynamoDbBackend', undefined);
    await stack.call('startDynamoDb', undefined);
  }
  const slow = stalled.filter((answer) => answer.ms > FUNCTION_TIMEOUT_SECONDS * 1000).length;
  report.check(
    ABUSE_AREA,
    'stalled DynamoDB: every post answered 503 within the function timeout, never another 5xx',
    stalled.every((answer) => answer.status === 503) && slow === 0,
    `${stalled.map((answer) => answer.status).join('/')}; ${slow} slower than ${FUNCTION_TIMEOUT_SECONDS} s`,
  );

  // Back: the retry of the keyed message goes through, then the visitor has its whole allowance.
  const retry = await post(`RS${runTag}K`, true);
  acceptId(ctx, retry);
  const statuses = [retry.status];
  for (let i = 0; i < (limit || 3); i += 1) {
    const answer = await post(`RS${runTag}N${i}`);
    acceptId(ctx, answer);
    statuses.push(answer.status);
  }
  const expected = limit === 0 ? statuses.map(() => 200) : [...Array<number>(limit).fill(200), 429];
  const kept = await keptWith(ctx, [`RS${runTag}A`, `RS${runTag}B`]);
  report.check(
    ABUSE_AREA,
    `after the stall a retry of the same message and the rest of the allowance go through (limit ${limit || 'off'}), and the 503s stored nothing`,
    JSON.stringify(statuses) === JSON.stringify(expected) && kept.stored === 0 && kept.mailed === 0,
    `${statuses.join(' ')}; unkeyed 503s: ${kept.stored} stored, ${kept.mailed} e-mailed`,
  );
}
