/**
 * The local stack in a process of its own, controlled over IPC by the suite.
 *
 * Why a child process: the edge, the handler and both emulators then share one heap and
 * one RSS that the load generator does not inflate, so "memory stays bounded under load"
 * measures the service and not the client. It also means the faults (stopping DynamoDB or
 * SES) happen to a running server the way they would in production: the edge is never
 * restarted, only what it depends on.
 *
 * Started by stack-client.ts with `node --import tsx --expose-gc`; never run by hand.
 */
import { FUNCTION_ENV } from '@site/core/function-env';
import type { RunningServer } from '@site/emulators/servers';
import type { LocalStack } from '@site/local/stack';
import { watchPrototypes } from '@site/local/prototype-watch';
import type {
  CommandName,
  CommandReply,
  CommandRequest,
  Commands,
  FatalMessage,
  MemorySample,
  ReadyMessage,
  StackProcessConfig,
} from './protocol';

function send(message: ReadyMessage | FatalMessage | CommandReply): void {
  process.send?.(message);
}

// Without a parent there is nobody to stop us: exit rather than hold ports forever.
let closing = false;
process.on('disconnect', () => process.exit(closing ? 0 : 1));
process.on('unhandledRejection', (error) => {
  send({ type: 'fatal', error: `unhandled rejection: ${(error as Error)?.stack ?? String(error)}` });
});

// Before any request arrives, so what one adds to a built-in prototype shows.
const prototypesAdded = watchPrototypes();

type CommandTable = { [K in CommandName]: (args: Commands[K]['args']) => Promise<Commands[K]['result']> };

/**
 * The faults the suite causes, idempotent, so a phase that failed half-way can always put the
 * stack back ("make sure SES runs") without knowing how far it got; and the retry job's runs.
 */
function stackCommands(
  stack: LocalStack,
  emulators: {
    startSesEmulator: (options: { port: number }) => Promise<RunningServer>;
    startDynamoDb: (options: { port: number; path?: string }) => Promise<RunningServer>;
  },
  dataDir: string,
): Omit<CommandTable, 'memory' | 'prototypes'> {
  let sesBackend: RunningServer | undefined;
  let dynamoDbBackend: RunningServer | undefined;
  const running = { dynamodb: true, ses: true };
  return {
    async stopDynamoDb() {
      if (running.dynamodb) await stack.stopDynamoDb();
      running.dynamodb = false;
    },
    async startDynamoDb() {
      // Its data cannot be open twice.
      await dynamoDbBackend?.close();
      dynamoDbBackend = undefined;
      if (!running.dynamodb) await stack.startDynamoDb();
      running.dynamodb = true;
    },
    async stopSes() {
      if (running.ses) await stack.stopSes();
      running.ses = false;
    },
    async startSes() {
      if (!running.ses) await stack.startSes();
      running.ses = true;
    },
    async startSesBackend() {
      // aws-ses-v2-local keeps its outbox in a module-level store: every emulator started in
      // this process writes to the same list, so `GET /store` on any of them sees all e-mails.
      sesBackend = await emulators.startSesEmulator({ port: 0 });
      return { url: sesBackend.url };
    },
    async stopSesBackend() {
      await sesBackend?.close();
      sesBackend = undefined;
    },
    async startDynamoDbBackend() {
      // The stack's DynamoDB is stopped first: the backend opens the same data, on a free port.
      if (running.dynamodb) await stack.stopDynamoDb();
      running.dynamodb = false;
      dynamoDbBackend ??= await emulators.startDynamoDb({ port: 0, path: dataDir });
      return { url: dynamoDbBackend.url };
    },
    async stopDynamoDbBackend() {
      await dynamoDbBackend?.close();
      dynamoDbBackend = undefined;
    },
    async postFromViewer({ address, port, headers, body }) {
      const answer = await stack.postFromViewer({ address, port }, { headers, body: Buffer.from(body, 'utf8') });
      return { status: answer.statusCode, body: answer.body.toString('utf8') };
    },
    deliveryEvent({ event }) {
      return stack.deliveryEvent(event);
    },
    async runRetryJob({ bypassGrace }) {
      if (!bypassGrace) return stack.runRetryJob();
      // The scheduled run takes the job's own options; this one skips the grace period and the backoff.
      return stack.retryJob({ minAgeMs: 0, backoffBaseMs: 0, limit: 10_000 });
    },
    async close() {
      closing = true;
      await stack.close();
      await sesBackend?.close();
      await dynamoDbBackend?.close();
    },
  };
}

/**
 * What the suite reads about this process and the contact function's environment (a thread
 * of it, function-sandbox.ts): their memory, and any pollution of the built-in prototypes.
 */
function probeCommands(stack: LocalStack): Pick<CommandTable, 'memory' | 'prototypes'> {
  return {
    async memory({ gc }) {
      const contactFunction = await stack.probeContactFunction({ gc });
      if (gc && typeof globalThis.gc === 'function') {
        // Twice: the first pass can leave objects with finalizers for the second.
        globalThis.gc();
        globalThis.gc();
      }
      const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
      return { rss, heapUsed: heapUsed + contactFunction.heapUsed, heapTotal, external, arrayBuffers } satisfies MemorySample;
    },
    async prototypes() {
      const contactFunction = await stack.probeContactFunction({ gc: false });
      return { added: [...prototypesAdded(), ...contactFunction.prototypesAdded.map((key) => `contact function: ${key}`)] };
    },
  };
}

/** Runs each command the suite sends and replies with its result or error. */
function answerCommands(commands: CommandTable): void {
  process.on('message', (raw) => {
    const request = raw as CommandRequest;
    const run = commands[request.cmd] as (args: unknown) => Promise<unknown>;
    if (!run) {
      send({ id: request.id, ok: false, error: `unknown command ${String(request.cmd)}` });
      return;
    }
    run(request.args).then(
      (result) => {
        send({ id: request.id, ok: true, result: result ?? null });
        // Exit after the reply is flushed, so the parent sees a clean close.
        if (request.cmd === 'close') setImmediate(() => process.disconnect());
      },
      (error: Error) => send({ id: request.id, ok: false, error: `${error.name}: ${error.message}` }),
    );
  });
}

async function main(): Promise<void> {
  const config = JSON.parse(process.env.ROBUSTNESS_STACK_CONFIG ?? '{}') as StackProcessConfig;
  const { startLocalStack, EPHEMERAL_STACK } = await import('@site/local/stack');
  const emulators = await import('@site/emulators/servers');

  // Port 0 everywhere: the suite never collides with `npm start` or another run.
  const stack = await startLocalStack({
    port: 0,
    dynamoPort: 0,
    sesPort: 0,
    dataDir: config.dataDir,
    siteDir: config.siteDir,
    visitorLimit: config.visitorLimit,
    // Thousands of messages from thousands of visitors in minutes are a wave, and the deploy's
    // budget would hold nearly all: the suite checks that each is e-mailed once, so it gives
    // budgets it never reaches. Suspect messages are still held (the honeypot's, the hostile
    // phase's links), and the last phase checks the digest counts them.
    mailBudgets: EPHEMERAL_STACK.mailBudgets,
    // The suite runs the retry job itself, at the moments the checks need.
    retryIntervalMs: 0,
    // The access log is on: the hostile phase checks that no request can forge a line in it.
    quiet: false,
  });
  answerCommands({ ...stackCommands(stack, emulators, config.dataDir), ...probeCommands(stack) });

  send({
    type: 'ready',
    pid: process.pid,
    urls: stack.urls,
    tableName: stack.tableName,
    mailFrom: stack.lambdaEnv[FUNCTION_ENV.mailFrom] ?? '',
    mailTo: (stack.lambdaEnv[FUNCTION_ENV.mailTo] ?? '').split(',').map((address) => address.trim()),
  });
}

main().catch((error: Error) => {
  send({ type: 'fatal', error: `${error.name}: ${error.message}` });
  process.exitCode = 1;
  setImmediate(() => process.disconnect());
});
