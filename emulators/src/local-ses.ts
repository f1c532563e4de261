/**
 * The local SES: aws-ses-v2-local (which accepts SendEmail and shows every e-mail on its
 * page) behind a front that does what the emulator does not, as SES does it. A send through
 * a configuration set other than the stack's is refused (ConfigurationSetDoesNotExist); a
 * send through the stack's set publishes that e-mail's delivery events, as the mailbox
 * simulator answers them (mailbox-simulator.ts), to `publish`: the local stack hands them to
 * the same consumer that runs in AWS. SES v2's GetAccount is answered as a new account's: in
 * the sandbox, sending, its quota and what this SES sent in the last 24 hours (`npm run smoke`'s
 * health reads it). Everything else (the outbox page, its API) is passed through as it is, so
 * the port serves what the emulator serves.
 */
import { members } from './aws-requests';
import { buffer } from 'node:stream/consumers';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listen, startSesEmulator, type RunningServer } from './servers';
import { loopbackUrl } from './connections';
import { simulatedEvents, type AcceptedEmail, type SesEventBridgeEvent } from './mailbox-simulator';

export interface LocalSesOptions {
  /** 0 picks a free port. */
  port: number;
  /** The one configuration set this SES knows. */
  configurationSet: string;
  /** Where the set's delivery events go; without it, none are published (SES's sends still go out). */
  publish?: (event: SesEventBridgeEvent) => Promise<void>;
  /** How long after a send the mail servers "answer": SES reports a delivery seconds later, never at once. */
  answerAfterMs?: number;
  /**
   * An SES emulator already running (its URL) to stand in front of; without it, one of its own
   * is started and stopped with this SES. Several fronts can share one emulator: each shows
   * only the e-mails it accepted.
   */
  emulator?: string;
}

const DEFAULT_ANSWER_AFTER_MS = 300;

/** A new account's SES: the sandbox's quota and rate. */
const SANDBOX = { Max24HourSend: 200, MaxSendRate: 1 } as const;

function tagsOf(params: URLSearchParams): Record<string, string> {
  const tags: Record<string, string> = {};
  for (let index = 1; params.has(`Tags.member.${index}.Name`); index += 1) {
    tags[params.get(`Tags.member.${index}.Name`)!] = params.get(`Tags.member.${index}.Value`) ?? '';
  }
  return tags;
}

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** SES's answer to a send through a configuration set it does not have. */
function unknownSetAnswer(response: ServerResponse, name: string): void {
  response.writeHead(400, { 'content-type': 'text/xml' });
  response.end(
    '<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type>' +
      `<Code>ConfigurationSetDoesNotExist</Code><Message>Configuration set &lt;${xmlText(name)}&gt; does not exist.</Message>` +
      `</Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`,
  );
}

/** The emulator's outbox as it answers `GET /store`. */
interface Store {
  emails: { messageId: string }[];
}

export async function startLocalSes(options: LocalSesOptions): Promise<RunningServer> {
  const emulator: Pick<RunningServer, 'url' | 'close'> =
    options.emulator === undefined ? await startSesEmulator({ port: 0 }) : { url: options.emulator, close: () => Promise.resolve() };
  /** The e-mails this SES accepted, in order: its outbox, however many other fronts share the emulator. */
  const accepted = new Set<string>();
  /** When each accepted e-mail was sent, for the account's count of the last 24 hours. */
  const sentAt: number[] = [];

  /** SES v2's GetAccount, as SES answers it for a new account in the sandbox. */
  const account = (response: ServerResponse) => {
    const since = Date.now() - 24 * 60 * 60 * 1000;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        DedicatedIpAutoWarmupEnabled: false,
        EnforcementStatus: 'HEALTHY',
        ProductionAccessEnabled: false,
        SendingEnabled: true,
        SendQuota: { ...SANDBOX, SentLast24Hours: sentAt.filter((at) => at >= since).length },
      }),
    );
  };
  const answerAfterMs = options.answerAfterMs ?? DEFAULT_ANSWER_AFTER_MS;
  const publishing = new Set<Promise<void>>();

  /** Publishes the e-mail's events in order, after the mail servers' answer; a failure is one line, never a crash. */
  const publishEvents = (email: AcceptedEmail) => {
    const publish = options.publish;
    if (!publish) return;
    const done = (async () => {
      const [sent, ...answers] = simulatedEvents(email, new Date(email.at.getTime() + answerAfterMs));
      await publish(sent!);
      await new Promise((resolve) => setTimeout(resolve, answerAfterMs));
      for (const event of answers) await publish(event);
    })().catch((error: Error) => {
      console.error(JSON.stringify({ level: 'error', msg: 'local SES could not publish a delivery event', error: error.name }));
    });
    publishing.add(done);
    void done.finally(() => publishing.delete(done));
  };

  const forward = async (request: IncomingMessage, response: ServerResponse, body: Buffer) => {
    const answer = await fetch(`${emulator.url}${request.url ?? '/'}`, {
      method: request.method,
      // What the emulator reads: the type of the body, and an authorization header it insists on.
      headers: Object.fromEntries(
        (['content-type', 'authorization'] as const).flatMap((name) => (request.headers[name] ? [[name, request.headers[name]]] : [])),
      ),
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : new Uint8Array(body),
    });
    const text = Buffer.from(await answer.arrayBuffer());
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' });
    response.end(text);
    return { status: answer.status, text: text.toString('utf8') };
  };

  /** The emulator's outbox API, answered for this SES's own e-mails only when fronts share the emulator. */
  const ownOutbox = async (request: IncomingMessage, response: ServerResponse): Promise<boolean> => {
    // An emulator of its own: its outbox is this SES's, whatever reached it (a test's fault proxy may send around the front).
    if (options.emulator === undefined) return false;
    const path = (request.url ?? '/').split('?')[0];
    if (request.method === 'POST' && path === '/clear-store') {
      accepted.clear();
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
      return true;
    }
    if (request.method !== 'GET' || path !== '/store') return false;
    const answer = await fetch(`${emulator.url}${request.url}`);
    const store = (await answer.json()) as Store;
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ ...store, emails: store.emails?.filter((email) => accepted.has(email.messageId)) }));
    return true;
  };

  const server = createServer((request, response) => {
    void (async () => {
      if (await ownOutbox(request, response)) return;
      if (request.method === 'GET' && (request.url ?? '').split('?')[0] === '/v2/email/account') return account(response);
      const body = await buffer(request);
      const params = request.method === 'POST' ? new URLSearchParams(body.toString('utf8')) : undefined;
      const configurationSet = params?.get('Action') === 'SendEmail' ? params.get('ConfigurationSetName') : null;
      if (configurationSet !== null && configurationSet !== undefined && configurationSet !== options.configurationSet) {
        unknownSetAnswer(response, configurationSet);
        return;
      }
      const at = new Date();
      const answer = await forward(request, response, body);
      const messageId = /<MessageId>([^<]+)<\/MessageId>/.exec(answer.text)?.[1];
      if (answer.status === 200 && messageId) {
        accepted.add(messageId);
        sentAt.push(at.getTime());
      }
      if (configurationSet && params && answer.status === 200 && messageId) {
        publishEvents({
          messageId,
          source: params.get('Source') ?? '',
          to: members(params, 'Destination.ToAddresses'),
          replyTo: members(params, 'ReplyToAddresses'),
          subject: params.get('Message.Subject.Data') ?? '',
          configurationSet,
          tags: tagsOf(params),
          at,
        });
      }
    })().catch(() => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
  });
  let port: number;
  try {
    port = await listen(server, options.port);
  } catch (error) {
    await emulator.close();
    throw error;
  }
  return {
    url: loopbackUrl(port),
    port,
    async close() {
      await closeServer(server);
      await Promise.all([...publishing]);
      await emulator.close();
    },
  };
}
