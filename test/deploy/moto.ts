/**
 * moto's AWS API server on a free port of this machine, started and stopped by the test. Its
 * endpoint is http://localhost:<port>, not 127.0.0.1: moto's CloudFormation reads the bucket
 * of a template URL from the URL's host (bucket.localhost), which an IP address has not.
 *
 * It runs with moto-as-aws/sitecustomize.py on PYTHONPATH, which makes the few answers the CDK
 * CLI and the guides rely on AWS's (updating a stack, outputs, point-in-time restores; the file
 * says why for each). Python imports it at start-up and it prints one line; without that line
 * the server is not the one the tests need, and the start fails saying so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const INSTALL_MOTO = "moto_server (moto's AWS API server) is not installed: pip install 'moto[server]'";

/** How long moto's server may take to answer at all. */
export const START_SECONDS = 120;

const AS_AWS = join(import.meta.dirname, 'moto-as-aws');
/** What moto-as-aws/sitecustomize.py prints once it has made its changes. */
const AS_AWS_LINE = 'moto answering as AWS:';

export interface Moto {
  endpoint: string;
  /** What moto printed, for a failure's message (requests and warnings, no personal data). */
  output(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function answers(endpoint: string): Promise<boolean> {
  try {
    return (await fetch(`${endpoint}/moto-api/`, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

export async function startMoto(): Promise<Moto> {
  const port = await freePort();
  const endpoint = `http://localhost:${port}`;
  const pythonPath = [AS_AWS, process.env.PYTHONPATH].filter(Boolean).join(':');
  const child: ChildProcess = spawn('moto_server', ['-p', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PYTHONPATH: pythonPath },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let failure: Error | undefined;
  child.once('error', (error: NodeJS.ErrnoException) => {
    failure = error.code === 'ENOENT' ? new Error(INSTALL_MOTO) : error;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Also when the test process itself goes down: moto must not outlive it.
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);

  const stop = async () => {
    process.removeListener('exit', kill);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
      if (!stopped) child.kill('SIGKILL');
    }
  };

  // Python loading moto's services takes seconds, and much longer on a machine that is busy.
  const deadline = Date.now() + START_SECONDS * 1000;
  while (!(await answers(endpoint))) {
    if (failure) throw failure;
    if (child.exitCode !== null) {
      // A version manager's shim (pyenv) exits 127 when no installed Python has the command.
      throw new Error(
        child.exitCode === 127 ? INSTALL_MOTO : `moto_server exited with ${child.exitCode}: ${output.trim().split('\n').at(-1)}`,
      );
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `moto_server did not answer on ${endpoint} within ${START_SECONDS} s: ${output.trim().split('\n').at(-1) ?? 'no output'}`,
      );
    }
    await sleep(200);
  }
  if (!output.includes(AS_AWS_LINE)) {
    await stop();
    throw new Error(
      `moto_server did not load ${join(AS_AWS, 'sitecustomize.py')} (its Python ignored PYTHONPATH, or the file failed against this moto version): ${output.trim().split('\n').slice(0, 3).join(' ')}`,
    );
  }
  return { endpoint, output: () => output, stop };
}
