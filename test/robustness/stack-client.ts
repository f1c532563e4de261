/**
 * The suite's side of stack-process.ts: forks it, waits until it listens, sends it commands
 * over IPC with a time limit each, and reads its log lines.
 *
 * The handler logs one JSON object per request (outcome, status, messageId, error names:
 * no visitor data, by lambda/src/shared/log.ts's design). The suite keeps those objects to explain
 * what it sees (a duplicate e-mail after a failed status update, for example) and writes
 * the raw output to a file in the run's temp dir instead of the console.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CommandName, CommandReply, Commands, FatalMessage, ReadyMessage, StackProcessConfig } from './protocol';

export interface LogEntry {
  level?: string;
  msg?: string;
  outcome?: string;
  status?: number;
  messageId?: string;
  error?: string;
  recordError?: string;
  [key: string]: unknown;
}

export interface StackClient {
  ready: ReadyMessage;
  call<K extends CommandName>(cmd: K, args: Commands[K]['args'], timeoutMs?: number): Promise<Commands[K]['result']>;
  /** Every JSON log line of the child so far (stdout and stderr). */
  logs: LogEntry[];
  /** The local edge's and API's access log lines (`edge  GET /path 200 3ms`), apart from the rest. */
  accessLines: string[];
  /** Lines that were neither JSON nor access log lines: stack traces would show up here. */
  otherLines: string[];
  logFile: string;
  close(): Promise<void>;
  /** Last resort, for the watchdog: kill the child and nothing else. */
  kill(): void;
}

const READY_TIMEOUT_MS = 60_000;
const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;

export async function startStackProcess(config: StackProcessConfig, logFile: string): Promise<StackClient> {
  const entry = fileURLToPath(new URL('./stack-process.ts', import.meta.url));
  // Resolved here rather than by name, so the child finds tsx whatever its working directory.
  const tsxLoader = import.meta.resolve('tsx');
  const child: ChildProcess = fork(entry, [], {
    execArgv: ['--import', tsxLoader, '--expose-gc'],
    env: { ...process.env, ROBUSTNESS_STACK_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const log = collectLog(child, logFile);
  const commands = new CommandChannel(child);
  const ready = await waitUntilReady(child, commands, log);
  const call: StackClient['call'] = (cmd, args, timeoutMs) => commands.call(cmd, args, timeoutMs);

  return {
    ready,
    call,
    logs: log.logs,
    accessLines: log.accessLines,
    otherLines: log.otherLines,
    logFile,
    async close() {
      if (!commands.exited) {
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        await call('close', undefined, 30_000).catch(() => undefined);
        // Bounded: a child that does not leave within 10 s is killed.
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await gone;
        clearTimeout(timer);
      }
      await new Promise<void>((resolve) => log.out.end(() => resolve()));
    },
    kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

interface ChildLog {
  logs: LogEntry[];
  accessLines: string[];
  otherLines: string[];
  logFile: string;
  /** The raw output, as it came. */
  out: WriteStream;
}

/** How local/src/stack.ts prefixes the edge's and the API's access log lines. */
const ACCESS_LINE = /^(edge {2}|api {3})/;

/** The child's stdout and stderr: raw into the log file, JSON lines parsed, anything else kept apart (shortened). */
function collectLog(child: ChildProcess, logFile: string): ChildLog {
  const log: ChildLog = { logs: [], accessLines: [], otherLines: [], logFile, out: createWriteStream(logFile) };
  const collect = (stream: NodeJS.ReadableStream | null) => {
    let rest = '';
    stream?.on('data', (chunk: Buffer) => {
      log.out.write(chunk);
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim()) continue;
        if (ACCESS_LINE.test(line)) {
          log.accessLines.push(line);
          continue;
        }
        try {
          const parsed = JSON.parse(line) as unknown;
          if (parsed && typeof parsed === 'object') log.logs.push(parsed as LogEntry);
          else log.otherLines.push(line.slice(0, 300));
        } catch {
          log.otherLines.push(line.slice(0, 300));
        }
      }
    });
  };
  collect(child.stdout);
  collect(child.stderr);
  return log;
}

/** Commands to the child over IPC, each answered by its id or refused after its time limit. */
class CommandChannel {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  /** Why the child can take no more commands, once it has exited or failed. */
  exited: Error | undefined;

  constructor(private readonly child: ChildProcess) {}

  call<K extends CommandName>(cmd: K, args: Commands[K]['args'], timeoutMs = DEFAULT_COMMAND_TIMEOUT_MS): Promise<Commands[K]['result']> {
    return new Promise<Commands[K]['result']>((resolve, reject) => {
      if (this.exited) return reject(this.exited);
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`stack command ${cmd} took more than ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.child.send({ id, cmd, args: args ?? null });
    });
  }

  settle(reply: CommandReply): void {
    const waiter = this.pending.get(reply.id);
    if (!waiter) return;
    this.pending.delete(reply.id);
    clearTimeout(waiter.timer);
    if (reply.ok) waiter.resolve(reply.result);
    else waiter.reject(new Error(reply.error));
  }

  failAll(error: Error): void {
    this.exited = error;
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(error);
    }
    this.pending.clear();
  }
}

/** Resolves with the child's ready message; rejects when it fails, exits or is not ready in time (then it is killed). */
function waitUntilReady(child: ChildProcess, commands: CommandChannel, log: ChildLog): Promise<ReadyMessage> {
  return new Promise<ReadyMessage>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`stack process not ready after ${READY_TIMEOUT_MS} ms (log: ${log.logFile})`));
    }, READY_TIMEOUT_MS);
    child.on('message', (raw) => {
      const message = raw as ReadyMessage | FatalMessage | CommandReply;
      if ('type' in message && message.type === 'ready') {
        clearTimeout(timer);
        resolve(message);
      } else if ('type' in message && message.type === 'fatal') {
        clearTimeout(timer);
        commands.failAll(new Error(`stack process: ${message.error}`));
        reject(new Error(`stack process failed: ${message.error} (log: ${log.logFile})`));
      } else if ('id' in message) {
        commands.settle(message);
      }
    });
    // 'close', not 'exit': only then has the child's last output been read.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // CI keeps only the console, not the log file: show what the child said last (a
      // stack trace lands in otherLines), so a crash explains itself.
      const said = log.otherLines.slice(-40).join('\n');
      const error = new Error(
        `stack process exited (code ${code}, signal ${signal}); log: ${log.logFile}${said ? `\n--- its last non-JSON output ---\n${said}` : ''}`,
      );
      commands.failAll(error);
      reject(error);
    });
  });
}
