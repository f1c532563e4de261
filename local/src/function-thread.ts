/**
 * One function's execution environment: a thread that imports the function's Lambda entry
 * (its exported `handler`) with the function's own environment, as the Lambda runtime does,
 * and runs the invocations function-sandbox.ts hands it. Never run by hand.
 */
import { subscribe } from 'node:diagnostics_channel';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { METRICS_CHANNEL } from '@site/lambda/metrics';
import { lambdaContext } from '@site/emulators/api-gateway';
import type { FromSandbox, SandboxData, ToSandbox } from './function-sandbox';
import { watchPrototypes } from './prototype-watch';

const { entry, functionName } = workerData as SandboxData;

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;
const { handler } = (await import(entry)) as { handler: Handler };

// After loading and before any invocation, so what a request adds to a built-in prototype shows.
const prototypesAdded = watchPrototypes();

const port = parentPort!;
const reply = (message: FromSandbox) => port.postMessage(message);

// The function's metric lines reach the local stack's counts (metric-counts.ts) the way the other functions' do: on the channel, there.
subscribe(METRICS_CHANNEL, (line) => reply({ type: 'metric-line', line: line as string }));

port.on('message', (message: ToSandbox) => {
  if (message.type === 'probe') {
    if (message.gc && typeof globalThis.gc === 'function') globalThis.gc();
    reply({ type: 'probe', id: message.id, prototypesAdded: prototypesAdded(), heapUsed: getHeapStatistics().used_heap_size });
    return;
  }
  const context = lambdaContext(functionName, message.requestId, message.deadline);
  handler(message.event, context).then(
    (result) => reply({ type: 'result', id: message.id, result }),
    (error: unknown) => reply({ type: 'error', id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
reply({ type: 'ready' });
