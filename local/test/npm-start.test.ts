import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_PATH } from '@site/core/contract';
import { DEFAULT_TABLE_NAME } from '@site/core/table';
import { emulatorClientConfig, loopbackUrl } from '@site/emulators/connections';
import { fetchSentEmails } from '@site/emulators/servers';
import { LOCAL_PORTS } from '../src/defaults';
import { REPO_ROOT } from '../src/stack';
import { freePort } from '@site/testing/free-port';
import { runScript } from '@site/testing/run-script';

interface Started {
  child: ChildProcess;
  output: () => string;
  readyAfterMs: number;
}

const children: ChildProcess[] = [];

/** Runs `npm start`'s program as a terminal would: its own process group, so Ctrl-C reaches all of it. */
async function start(env: Record<string, string>): Promise<Started> {
  const began = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/src/start.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready after 30 s:\n${output}`)), 30_000);
    child.stdout.on('data', () => {
      if (output.includes('Ctrl-C stops everything')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${output}`));
    });
  });
  return { child, output: () => output, readyAfterMs: Date.now() - began };
}

function interrupt(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    process.kill(-child.pid!, 'SIGINT');
  });
}

function portIsClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

function groupIsAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * How long a poll waits for what a test awaits: more than a busy machine needs, less than the
 * test's own limit, so that a failure names what never came rather than only the test's time.
 */
const PATIENCE = { timeout: 30_000 };

/**
 * Every port `npm start` opens, each left to the system ('0'): a suite beside this one (another
 * clone's `npm test`) must never meet these tests on a default port. `npm run dev` opens DEV_PORT.
 */
const ANY_PORTS: Record<string, string> = Object.fromEntries(
  Object.values(LOCAL_PORTS)
    .filter((setting) => setting !== LOCAL_PORTS.dev)
    .map((setting) => [setting.variable, '0']),
);

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
});

describe('npm start', () => {
  it('is ready within 15 s, prints the five URLs and its DATA_DIR, keeps messages across a restart and leaves nothing behind on Ctrl-C', async () => {
    const [port, dynamoPort, sesPort, apiPort, metricsPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const env = {
      PORT: String(port),
      DYNAMODB_PORT: String(dynamoPort),
      SES_PORT: String(sesPort),
      API_PORT: String(apiPort),
      METRICS_PORT: String(metricsPort),
      MONITORING_PORT: '0',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'start-data-')),
    };

    const first = await start(env);
    expect(first.readyAfterMs).toBeLessThan(15_000);
    for (const p of [port, dynamoPort, sesPort, apiPort, metricsPort]) expect(first.output()).toContain(`http://127.0.0.1:${p}`);
    // Where the data really is: DATA_DIR, not the default.
    expect(first.output()).toContain(`data in ${env.DATA_DIR} `);
    expect(first.output()).not.toContain('.data/');

    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    const sent = await fetch(`http://127.0.0.1:${port}${API_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Herstart Test', email: 'herstart@example.nl', message: 'Blijft dit bewaard?' }),
    });
    expect(sent.status).toBe(200);
    const { id } = (await sent.json()) as { id: string };

    expect(await interrupt(first.child)).toBe(0);
    // Helpers such as tsx's esbuild service exit a moment after the main process.
    await expect.poll(() => groupIsAlive(first.child.pid!), { ...PATIENCE, message: 'the process group is gone' }).toBe(false);
    for (const p of [port, dynamoPort, sesPort, apiPort, metricsPort]) expect(await portIsClosed(p)).toBe(true);

    const second = await start(env);
    const client = new DynamoDBClient(emulatorClientConfig(loopbackUrl(dynamoPort)));
    const item = await client.send(new GetItemCommand({ TableName: DEFAULT_TABLE_NAME, Key: { id: { S: id } } }));
    client.destroy();
    expect(item.Item?.message?.S).toBe('Blijft dit bewaard?');
    expect(await interrupt(second.child)).toBe(0);
  });

  it('names the port and the variable to change when a port is in use', async () => {
    const busy = await start({
      ...ANY_PORTS,
      DYNAMODB_PORT: String(await freePort()),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'start-data-')),
    });
    const dynamoPort = /DynamoDB\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(busy.output())![1]!;
    const second = await start({
      ...ANY_PORTS,
      DYNAMODB_PORT: dynamoPort,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'start-data-')),
    }).catch((error: Error) => error);
    expect(second).toBeInstanceOf(Error);
    expect((second as Error).message).toContain(`Port ${dynamoPort} is in use; set DYNAMODB_PORT to a free port`);
    await interrupt(busy.child);
  });

  it('takes VISITOR_LIMIT for the local stack only: 0 turns the limit off; anything but a whole number stops it with one line', async () => {
    const free = ANY_PORTS;
    const unlimited = await start({ ...free, VISITOR_LIMIT: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'start-data-')) });
    const site = /Site\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(unlimited.output())![1]!;
    const statuses: number[] = [];
    // More than any limit a deploy allows by default, all from this one address.
    for (let i = 0; i < 8; i += 1) {
      const response = await fetch(`${site}${API_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Zonder Limiet', email: 'limiet@example.nl', message: `Bericht ${i}` }),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual(Array(8).fill(200));
    await interrupt(unlimited.child);

    const refused = await start({ ...free, VISITOR_LIMIT: 'veel', DATA_DIR: mkdtempSync(join(tmpdir(), 'start-data-')) }).catch(
      (error: Error) => error,
    );
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/^exited with 1:\nVISITOR_LIMIT=veel is not a whole number from 0 to 1000\.\n$/);
  });

  it('takes MAIL_BUDGET=0 for the local stack only: every message e-mailed past the budgets and a network’s share; anything but 0 stops it with one line', async () => {
    const free = ANY_PORTS;
    const lifted = await start({ ...free, MAIL_BUDGET: '0', VISITOR_LIMIT: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'start-data-')) });
    const site = /Site\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(lifted.output())![1]!;
    const ses = /SES\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(lifted.output())![1]!;
    // More than the deploy's ordinary budget of an hour (10), all from this one address.
    const sent = 14;
    for (let i = 0; i < sent; i += 1) {
      const response = await fetch(`${site}${API_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Zonder Budget', email: 'budget@example.nl', message: `Proefbericht ${i} over een demo.` }),
      });
      expect(response.status).toBe(200);
    }
    expect(await fetchSentEmails(ses)).toHaveLength(sent);
    await interrupt(lifted.child);

    const refused = await start({ ...free, MAIL_BUDGET: '50', DATA_DIR: mkdtempSync(join(tmpdir(), 'start-data-')) }).catch(
      (error: Error) => error,
    );
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/^exited with 1:\nMAIL_BUDGET=50: only 0 is taken \(it lifts the budgets\)/);
  });

  it('mails the firm at CONTACT_RECIPIENT: a bounce@ simulator address ends bounced in npm run messages, and a resend to a good address delivered', async () => {
    const free = { ...ANY_PORTS, DATA_DIR: mkdtempSync(join(tmpdir(), 'start-data-')) };
    const dynamoPort = String(await freePort());
    const bouncing = await start({ ...free, DYNAMODB_PORT: dynamoPort, CONTACT_RECIPIENT: 'bounce@simulator.amazonses.com' });
    expect(bouncing.output()).toContain('to bounce@simulator.amazonses.com');
    const site = /Site\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(bouncing.output())![1]!;
    const sesPort = /SES\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(bouncing.output())![1]!;
    const sent = await fetch(`${site}${API_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Stuiter Test', email: 'stuiter@example.nl', message: 'Komt dit aan?' }),
    });
    const { id } = (await sent.json()) as { id: string };

    // As the operator reads it: npm run messages against the running stack.
    const messages = (args: string[], env: Record<string, string> = {}) =>
      runScript(join(REPO_ROOT, 'ops/messages.ts'), args, {
        env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', DYNAMODB_PORT: dynamoPort, SES_PORT: sesPort, ...env },
      });
    // SES's event reaches the stored message a moment after the send.
    const shown = (status: string) =>
      vi.waitFor(async () => {
        const { stdout } = await messages(['show', id]);
        expect(stdout).toMatch(new RegExp(`^status\\s+${status}$`, 'm'));
        return stdout;
      }, PATIENCE);
    const bounced = await shown('bounced');
    expect(bounced).toMatch(/^status\s+bounced$/m);
    expect(bounced).toMatch(/^mail server\s+Permanent\/General: smtp; 550 5\.1\.1 user unknown$/m);

    // contactRecipient fixed: the message goes out again, and SES reports it delivered.
    const resent = await messages(['resend', id], { MAIL_TO: 'success@simulator.amazonses.com' });
    expect(resent.code).toBe(0);
    expect(resent.stdout).toContain(`E-mailed message ${id} to success@simulator.amazonses.com`);
    expect(await shown('delivered')).toMatch(/^outcome\s+delivered \(attempt 2, /m);
    expect(await interrupt(bouncing.child)).toBe(0);

    const refused = await start({ ...free, DYNAMODB_PORT: '0', CONTACT_RECIPIENT: 'de firma' }).catch((error: Error) => error);
    expect((refused as Error).message).toMatch(
      /^exited with 1:\nCONTACT_RECIPIENT=de firma is not an e-mail address, such as bounce@simulator\.amazonses\.com\.\n$/,
    );
  });
});
