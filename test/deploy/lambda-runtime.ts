/**
 * What the Lambda runtime does with a deployed package, for the events given, in one process
 * (one warm execution environment): loads the handler named by _HANDLER from LAMBDA_TASK_ROOT,
 * as the Node.js runtime resolves it (`index.handler` → index.mjs, index.js or index.cjs), and
 * invokes it once per event with a context object, one invocation after the other.
 *
 *   node lambda-runtime.ts <results.json>   (the events, a JSON array, on stdin)
 *
 * The environment is the function's: the caller sets it, as Lambda does. The handler's own
 * log lines go to stdout as in Lambda; the results go to the file, so the two never mix.
 * Run by Node.js itself (type stripping), so it imports nothing that needs compiling.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { pathToFileURL } from 'node:url';

type Handler = (event: unknown, context: unknown) => Promise<unknown>;

const [resultsFile] = process.argv.slice(2);
const taskRoot = process.env.LAMBDA_TASK_ROOT;
const [moduleName, exportName] = (process.env._HANDLER ?? '').split('.');
if (!resultsFile || !taskRoot || !moduleName || !exportName) {
  throw new Error('Usage: LAMBDA_TASK_ROOT=<dir> _HANDLER=<module>.<export> node lambda-runtime.ts <results.json> < events.json');
}
const file = ['.mjs', '.js', '.cjs'].map((extension) => join(taskRoot, moduleName + extension)).find((path) => existsSync(path));
if (!file) throw new Error(`No ${moduleName}.mjs, .js or .cjs in the package.`);
const handler = ((await import(pathToFileURL(file).href)) as Record<string, unknown>)[exportName];
if (typeof handler !== 'function') throw new Error(`${moduleName}.${exportName} is not a function.`);

const timeoutMs = Number(process.env.AWS_LAMBDA_FUNCTION_TIMEOUT ?? 3) * 1000;
const events = JSON.parse(await text(process.stdin)) as unknown[];
const results: unknown[] = [];
for (const event of events) {
  const deadline = Date.now() + timeoutMs;
  const awsRequestId = randomUUID();
  const context = {
    awsRequestId,
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    invokedFunctionArn: process.env.FUNCTION_ARN,
    logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Task timed out after ${timeoutMs / 1000} seconds`)), timeoutMs);
  });
  try {
    results.push(await Promise.race([(handler as Handler)(event, context), timedOut]));
  } finally {
    clearTimeout(timer);
  }
}
writeFileSync(resultsFile, JSON.stringify(results));
