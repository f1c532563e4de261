/**
 * A function run as Lambda runs it: in an execution environment of its own (a worker
 * thread, function-thread.ts) with its own environment variables, importing its Lambda entry.
 * The edge's thread stays free while the function works. A call still running at its deadline
 * is answered "Task timed out", and when its code holds the thread (a loop, a minute of CPU)
 * the environment is ended, as Lambda ends it; the next call starts a fresh one, as after a
 * cold start. Without this, a handler stuck in a loop would hold the whole local stack for as
 * long as it ran, where AWS gives up after the function's timeout.
 *
 * One environment serves the calls that overlap, where Lambda gives each its own: what one
 * call's code does to the thread, the others in it meet too.
 */
import { channel } from 'node:diagnostics_channel';
import { Worker } from 'node:worker_threads';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { logLine } from '@site/lambda/log';
import { METRICS_CHANNEL } from '@site/lambda/metrics';

/** What the thread is started with. */
export interface SandboxData {
  /** The module whose `handler` Lambda would call, e.g. `@site/lambda/handlers/send-contact-email`. */
  entry: string;
  functionName: string;
}

export type ToSandbox =
  | { type: 'invoke'; id: number; event: APIGatewayProxyEventV2; requestId: string; deadline: number }
  | { type: 'probe'; id: number; gc: boolean };

/** Each kind of message without its id, which `call` adds. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export type FromSandbox =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: APIGatewayProxyResultV2 }
  | { type: 'error'; id: number; error: string }
  | { type: 'probe'; id: number; prototypesAdded: string[]; heapUsed: number }
  /** A metric line the function wrote, published again on this thread's METRICS_CHANNEL. */
  | { type: 'metric-line'; line: string };

/** What the suite reads about the environment: what its requests added to built-in prototypes, and its live heap. */
export interface SandboxProbe {
  prototypesAdded: string[];
  heapUsed: number;
}

export interface FunctionSandbox {
  handler: (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;
  /** Reads the environment running now (starting one if none is). */
  probe: (options: { gc: boolean }) => Promise<SandboxProbe>;
  close: () => Promise<void>;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** One environment: its thread, and the calls it has not answered yet. */
interface Environment {
  thread: Worker;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  /** A call in it ran past its deadline: it takes no new calls, and ends when its last is answered (retire). */
  retired?: boolean;
}

/**
 * How long a thread with a call past its deadline has to answer before it counts as stuck.
 * Generous: a thread serving many calls on a busy machine answers late, and ending it would
 * end all of them.
 */
const STUCK_MS = 5_000;

const metricLines = channel(METRICS_CHANNEL);

const THREAD = new URL('./function-thread.ts', import.meta.url);
const TSX = import.meta.resolve('tsx');

/**
 * Starts the function's first environment and waits until it has loaded, as a deployed
 * function is warm after its first request. `env` is the whole environment the function
 * sees (nothing of this process's leaks in).
 */
export async function startFunctionSandbox(options: SandboxData & { env: Record<string, string> }): Promise<FunctionSandbox> {
  const data: SandboxData = { entry: options.entry, functionName: options.functionName };
  let current: Environment | undefined;
  /** Every environment not yet ended: the current one, and retired ones finishing their calls. */
  const running = new Set<Environment>();
  let nextId = 0;

  const start = (): Environment => {
    // tsx loads the TypeScript, as it does for the stack (resolved here, so whatever the working
    // directory). V8's flags are the process's: with --expose-gc, the thread has gc() too.
    const thread = new Worker(THREAD, { workerData: data, env: options.env, execArgv: ['--import', TSX] });
    const environment: Environment = { thread, pending: new Map(), ready: Promise.resolve() };
    environment.ready = new Promise((resolve, reject) => {
      // An error the function's code left uncaught ends the thread (below); before it was ready, the start fails.
      thread.on('error', (error: Error) => {
        reject(error);
        console.error(logLine({ level: 'error', msg: 'function runtime error', function: data.functionName, error: error.message }));
      });
      thread.on('message', (message: FromSandbox) => {
        if (message.type === 'ready') return resolve();
        if (message.type === 'metric-line') return metricLines.publish(message.line);
        const call = environment.pending.get(message.id);
        environment.pending.delete(message.id);
        if (message.type === 'error') call?.reject(new Error(message.error));
        else call?.resolve(message.type === 'result' ? message.result : message);
        if (environment.retired && environment.pending.size === 0) void environment.thread.terminate();
      });
    });
    // A thread that dies takes its calls with it, as a crashed runtime does.
    thread.on('exit', () => {
      for (const call of environment.pending.values()) call.reject(new Error('Runtime exited'));
      environment.pending.clear();
      running.delete(environment);
      if (current === environment) current = undefined;
    });
    running.add(environment);
    return environment;
  };

  /** Sends one message to `environment`; its answer, when the thread gives one. */
  const ask = <T>(environment: Environment, message: WithoutId<ToSandbox>) => {
    const id = (nextId += 1);
    const answer = new Promise<T>((resolve, reject) => environment.pending.set(id, { resolve: (value) => resolve(value as T), reject }));
    environment.thread.postMessage({ ...message, id });
    return { answer, id };
  };

  /** Sends one message to the environment running now, starting one if none is. */
  const call = async <T>(message: WithoutId<ToSandbox>) => {
    const environment = (current ??= start());
    await environment.ready;
    return { ...ask<T>(environment, message), environment };
  };

  const end = async (environment: Environment) => {
    if (current === environment) current = undefined;
    await environment.thread.terminate();
  };

  /**
   * After a call ran past its deadline, the environment takes no new calls (the next starts a
   * fresh one, as Lambda's would). It is ended at once when its thread does not answer within
   * STUCK_MS, held by code that never lets go; else it ends once the calls still in it are
   * answered: they were only waiting (on a stalled DynamoDB, say), and in AWS each would have
   * had an environment of its own.
   */
  const retire = async (environment: Environment) => {
    if (environment.retired) return;
    environment.retired = true;
    if (current === environment) current = undefined;
    const { answer } = ask(environment, { type: 'probe', gc: false });
    const answered = await Promise.race([
      answer.then(
        () => true,
        () => true,
      ),
      new Promise<false>((resolve) => setTimeout(resolve, STUCK_MS, false)),
    ]);
    if (!answered || environment.pending.size === 0) await end(environment);
  };

  const handler: FunctionSandbox['handler'] = async (event, context) => {
    const deadline = Date.now() + context.getRemainingTimeInMillis();
    const { answer, environment, id } = await call<APIGatewayProxyResultV2>({
      type: 'invoke',
      event,
      requestId: context.awsRequestId,
      deadline,
    });
    const timer = setTimeout(() => {
      const pending = environment.pending.get(id);
      if (pending === undefined) return;
      environment.pending.delete(id);
      pending.reject(new Error('Task timed out'));
      void retire(environment);
    }, deadline - Date.now());
    try {
      return await answer;
    } finally {
      clearTimeout(timer);
    }
  };

  current = start();
  await current.ready;
  return {
    handler,
    probe: async ({ gc }) => (await call<SandboxProbe>({ type: 'probe', gc })).answer,
    close: async () => {
      await Promise.all([...running].map(end));
    },
  };
}
