/**
 * The bundle as Lambda receives it: within the size budget, self-contained, and working
 * against the stand-ins when imported on its own.
 */
import type { FunctionName } from '@site/core/names';
import { FUNCTION_BUNDLE_MAX_BYTES as BUDGET_BYTES } from '@site/core/function-limits';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleHandler, HANDLER_BUNDLE, sourcePositions } from '../bundle';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { sesEvent } from '@site/testing/ses-events';
import { startFunctionAws, type FunctionAws } from './support/contact-stack';

const handlerEntry = (name: string) => fileURLToPath(new URL(`../src/handlers/${name}.ts`, import.meta.url));

const outDir = mkdtempSync(join(tmpdir(), 'lambda-bundle-'));
let aws: FunctionAws;
let sendBundle: { outfile: string; bytes: number };
let retryBundle: { outfile: string; bytes: number };
let eventBundle: { outfile: string; bytes: number };

beforeAll(async () => {
  [sendBundle, retryBundle, eventBundle] = await Promise.all([
    bundleHandler(handlerEntry('send-contact-email'), join(outDir, 'send-contact-email.mjs')),
    bundleHandler(handlerEntry('retry-undelivered'), join(outDir, 'retry-undelivered.mjs')),
    bundleHandler(handlerEntry('record-delivery-event'), join(outDir, 'record-delivery-event.mjs')),
  ]);
  aws = await startFunctionAws();
});

afterAll(async () => {
  await aws?.close();
  rmSync(outDir, { recursive: true, force: true });
});

const RESULT = 'RESULT ';

/** Imports the bundle in a fresh Node.js process with the environment Lambda would give it, as Lambda does, and calls its handler once. */
async function runBundle(
  fn: FunctionName,
  outfile: string,
  event: unknown,
): Promise<{ result: unknown; logs: Record<string, unknown>[]; metrics: Record<string, unknown>[] }> {
  const script = `const { handler } = await import(${JSON.stringify(pathToFileURL(outfile).href)});
    const result = await handler(JSON.parse(process.env.EVENT));
    process.stdout.write(${JSON.stringify(RESULT)} + JSON.stringify(result ?? null) + '\\n');`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', script], {
    cwd: outDir,
    env: { ...process.env, ...aws.lambdaEnvOf(fn), EVENT: JSON.stringify(event) },
  });
  const lines = stdout.trim().split('\n');
  const resultLine = lines.find((line) => line.startsWith(RESULT));
  const written = lines.filter((line) => line !== resultLine).map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    result: JSON.parse(resultLine!.slice(RESULT.length)),
    logs: written.filter((line) => !('_aws' in line)),
    // The values of each metric line (CloudWatch Embedded Metric Format), without its `_aws` definitions.
    metrics: written.filter((line) => '_aws' in line).map(({ _aws, ...values }) => values),
  };
}

/** The modules the bundle imports (static and dynamic import; CommonJS requires are checked by running it). */
function esmImports(code: string): string[] {
  return [...code.matchAll(/\bimport\s*(?:\(\s*|[\w$*{}\s,]+from\s*)["']([^"']+)["']/g)].map((match) => match[1]!);
}

describe('the send-contact-email bundle', () => {
  it(`is at most ${BUDGET_BYTES / 1000} KB minified`, () => {
    expect(HANDLER_BUNDLE.minify).toBe(true);
    expect(sendBundle.bytes).toBeGreaterThan(50 * 1024);
    expect(sendBundle.bytes).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('carries the AWS SDK inside and needs nothing but Node.js built-ins', () => {
    const imports = esmImports(readFileSync(sendBundle.outfile, 'utf8'));
    expect(imports).toContain('node:module');
    const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
    expect(imports.filter((specifier) => !builtins.has(specifier))).toEqual([]);
  });

  it('leaves out what a cold start would load and never run: the fetch behind node:http, the credential chain past the environment', () => {
    const code = readFileSync(sendBundle.outfile, 'utf8');
    // An ES import of node:http makes Node read its lazy WebSocket getters, which load undici.
    expect(esmImports(code)).not.toContain('node:http');
    expect(esmImports(code)).not.toContain('http');
    // Markers of the web-identity, SSO, process and container steps of the SDK's default chain.
    for (const marker of ['AWS_WEB_IDENTITY_TOKEN_FILE', 'sso_start_url', 'credential_process', 'AWS_CONTAINER_CREDENTIALS_FULL_URI']) {
      expect(code).not.toContain(marker);
    }
    expect(code).toContain('AWS_SESSION_TOKEN');
  });

  it('stores and e-mails a message, run by plain Node.js outside the repository', async () => {
    // Outside the repository no node_modules is reachable, as in Lambda.
    expect(outDir.startsWith(fileURLToPath(new URL('../..', import.meta.url)))).toBe(false);
    const stored = await runBundle('send-contact-email', sendBundle.outfile, contactEvent({ body: VALID_BODY }));
    const response = answer(stored.result as APIGatewayProxyStructuredResultV2);
    expect(response.statusCode).toBe(200);
    expect(stored.logs).toEqual([expect.objectContaining({ outcome: 'stored_and_emailed', status: 200 })]);
    expect(stored.metrics).toEqual([{ Stage: aws.config.stage, Received: 1, Stored: 1, Emailed: 1 }]);
    expect(await aws.message(response.json.id!)).toMatchObject({ status: 'emailed', name: VALID_BODY.name });
    expect(await aws.sentEmails()).toHaveLength(1);

    const refused = answer(
      (await runBundle('send-contact-email', sendBundle.outfile, contactEvent({ body: { ...VALID_BODY, email: 'geen adres' } })))
        .result as APIGatewayProxyStructuredResultV2,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json.fields).toEqual({ email: 'Vul een geldig e-mailadres in.' });
  });
});

describe('an unexpected error in the bundle', () => {
  it('is logged with where it was thrown, which npm run where maps back to the TypeScript', async () => {
    // The bundle's own factories (exported for the bench), with a field list whose reading
    // throws, as a bug in validation would: the frames inside the bundle are the function's.
    const script = `const bundle = await import(${JSON.stringify(pathToFileURL(sendBundle.outfile).href)});
      const fields = Object.defineProperty({}, 'name', { enumerable: true, get() { throw new TypeError('bug'); } });
      const handler = bundle.createContactHandler({ config: bundle.readContactConfig(process.env), clients: bundle.createAwsClients(), fields });
      await handler(JSON.parse(process.env.EVENT));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', script], {
      cwd: outDir,
      env: { ...process.env, ...aws.lambdaEnv, EVENT: JSON.stringify(contactEvent({ body: VALID_BODY })) },
    });
    const line = JSON.parse(stdout.trim().split('\n').at(-1)!) as { outcome: string; where: string };
    expect(line.outcome).toBe('unexpected_error');
    const inBundle = line.where.split(' < ').filter((position) => position.startsWith(`${basename(sendBundle.outfile)}:`));
    expect(inBundle.length).toBeGreaterThan(0);

    const found = await sourcePositions('send-contact-email', inBundle);
    expect(found[0]!.source).toMatch(/^lambda\/src\/contact\/schema\.ts:\d+:\d+$/);
  });
});

describe('the retry-undelivered bundle', () => {
  it('is within the same budget and runs', async () => {
    expect(retryBundle.bytes).toBeLessThanOrEqual(BUDGET_BYTES);
    const run = await runBundle('retry-undelivered', retryBundle.outfile, { source: 'aws.events' });
    expect(run.result).toEqual({ examined: 0, delivered: 0, deferred: 0, failed: 0, skipped: 0, pending: 0, notDelivered: 0, digested: 0 });
    expect(run.logs).toEqual([expect.objectContaining({ msg: 'retry-undelivered' })]);
    expect(run.metrics).toEqual([{ Stage: aws.config.stage, RetryBacklog: 0, NotDelivered: 0 }]);
  });
});

describe('the record-delivery-event bundle', () => {
  it('needs no SES client, is well within the budget, and records a delivery run by plain Node.js', async () => {
    expect(eventBundle.bytes).toBeLessThan(sendBundle.bytes);
    expect(readFileSync(eventBundle.outfile, 'utf8')).not.toContain('SendEmail');
    const sent = answer(
      (await runBundle('send-contact-email', sendBundle.outfile, contactEvent({ body: VALID_BODY })))
        .result as APIGatewayProxyStructuredResultV2,
    );
    const stored = await aws.message(sent.json.id!);
    const run = await runBundle(
      'record-delivery-event',
      eventBundle.outfile,
      sesEvent('Email Delivered', { messageId: stored!.id, attempt: 1, sesMessageId: stored!.sesMessageId! }),
    );
    expect(run.logs).toEqual([expect.objectContaining({ msg: 'delivery event', outcome: 'recorded', reports: 'delivered' })]);
    expect(run.metrics).toEqual([{ Stage: aws.config.stage, Outcome: 'delivered', DeliveryOutcomes: 1 }]);
    expect(await aws.message(stored!.id)).toMatchObject({ status: 'delivered' });
  });
});
