/**
 * IAM in front of a stand-in. dynalite and the SES stand-in enforce no IAM, so a role that AWS
 * refuses would pass every test here. The gate evaluates each call before it reaches the
 * stand-in, as AWS does: the principal is the access key id the request is signed with (a
 * function's name, or an operator policy's, from DeployedRoles), and each action on each
 * resource, with its condition keys (aws-requests.ts), goes through an IAM policy simulator
 * (@cloud-copilot/iam-simulate) over that principal's policies. A call AWS would deny gets AWS's
 * own answer (AccessDeniedException from DynamoDB, AccessDenied from SES, naming the action and
 * the resource) and never reaches the stand-in; an allowed one passes through unchanged.
 *
 * The stand-ins' own key (EMULATOR_CREDENTIALS) is an administrator's: a test's or the stack's
 * setup (creating a table, reading what a test left) passes unchecked. Any other key the gate
 * does not know is refused as AWS refuses an unknown one, so a function's client built with the
 * wrong credentials fails at once instead of passing unchecked. Test and local only: nothing of
 * it is in a function's bundle.
 */
import { buffer } from 'node:stream/consumers';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { NAME_PLACEHOLDERS, rolesFor, type DeployedRoles, type StageNames } from '@site/core/node/deployed-roles';
import {
  dynamodbChecks,
  monitoringChecks,
  sesChecks,
  sesV2Checks,
  signedRegion,
  signer,
  UnreadableRequestError,
  type Check,
  type DynamoDbRequest,
} from './aws-requests';
import { EMULATOR_CREDENTIALS, loopbackUrl } from './connections';
import { closeServer, listen, type RunningServer } from './servers';

/** DynamoDB; SES (v1 and v2); CloudWatch's and EventBridge's reads, one stand-in for both (local-monitoring.ts). */
export type GatedService = 'dynamodb' | 'ses' | 'monitoring';

/** One evaluated call, as the record of a run keeps it: the stack's names back as placeholders. */
export interface GateCall {
  principal: string;
  action: string;
  resource: string;
  allowed: boolean;
}

export interface IamGateOptions {
  service: GatedService;
  /** The stand-in's address, where allowed calls go. */
  upstream: string;
  /** Who may do what: the stage's roles, and the names of this stack's resources. */
  roles: DeployedRoles;
  names: StageNames;
  /** Where each evaluated call is written down (callLog), for the check of unused grants. */
  record?: (call: GateCall) => void;
  port?: number;
}

const ADMIN_KEY = EMULATOR_CREDENTIALS.accessKeyId;
/** Decisions kept per gate. */
const DECISIONS_KEPT = 5_000;

export type Decision = 'Allowed' | 'ExplicitlyDenied' | 'ImplicitlyDenied';

const LEADING_KEYS = 'dynamodb:leadingkeys';

/** An IAM StringLike pattern (`*` any characters, `?` one) as a regular expression, as the simulator reads it (no line break for either). */
const likePattern = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replaceAll('*', '.*')
      .replaceAll('?', '.')}$`,
  );

/**
 * Every pattern a principal's policies compare dynamodb:LeadingKeys with, or undefined when one
 * holds a policy variable, whose value a pattern alone does not tell.
 */
function leadingKeyPatterns(roles: DeployedRoles, principal: string): RegExp[] | undefined {
  const patterns = roles.principals[principal]!.flatMap(({ policy }) =>
    policy.Statement.flatMap((statement) =>
      Object.values(statement.Condition ?? {}).flatMap((keys) =>
        Object.entries(keys).flatMap(([key, values]) => (key.toLowerCase() === LEADING_KEYS ? [values].flat() : [])),
      ),
    ),
  );
  return patterns.some((pattern) => pattern.includes('${')) ? undefined : patterns.map(likePattern);
}

/**
 * What a decision depends on: the call, with each item key written as the patterns of the
 * policies it matches. A key is in every call's context (a message's id, a counter's hash), so
 * keyed by the items themselves nearly no decision was ever reused, and each call cost an
 * evaluation; two keys that match the same patterns get the same answer from every condition.
 */
function decisionKey(principal: string, check: Check, patterns: RegExp[] | undefined): string {
  const context = Object.entries(check.context).map(([key, value]) =>
    key.toLowerCase() === LEADING_KEYS && patterns
      ? [key, [...new Set([value].flat().map((item) => patterns.map((pattern) => (pattern.test(item) ? 1 : 0)).join('')))].sort()]
      : [key, value],
  );
  return JSON.stringify([principal, check.action, check.resource, context]);
}

/** Evaluates checks for one set of roles, remembering recent answers. */
function evaluator(roles: DeployedRoles) {
  const decisions = new Map<string, Promise<Decision>>();
  const patterns = new Map<string, RegExp[] | undefined>();
  return (principal: string, check: Check): Promise<Decision> => {
    if (!patterns.has(principal)) patterns.set(principal, leadingKeyPatterns(roles, principal));
    const key = decisionKey(principal, check, patterns.get(principal));
    let decision = decisions.get(key);
    if (!decision) {
      if (decisions.size >= DECISIONS_KEPT) decisions.delete(decisions.keys().next().value!);
      decision = decideCall(roles, principal, check);
      decisions.set(key, decision);
    }
    return decision;
  };
}

/** What IAM decides for one call of `principal`, over its policies in `roles` (names already in place: rolesFor). */
export async function decideCall(roles: DeployedRoles, principal: string, check: Check): Promise<Decision> {
  const result = await runSimulation(
    {
      identityPolicies: roles.principals[principal]!.map(({ name, policy }) => ({ name, policy: policy as never })),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      request: {
        action: check.action,
        principal: `arn:aws:iam::${roles.account}:role/${principal}`,
        resource: { resource: check.resource, accountId: roles.account },
        contextVariables: check.context,
      },
    },
    {},
  );
  if (result.resultType === 'error') throw new Error(`IAM simulator: ${JSON.stringify(result.errors)}`);
  return result.overallResult;
}

/** AWS's answer to a call IAM refused, as the service's protocol writes it (SES v2's REST as JSON, with its error type in a header). */
function refusal(
  service: GatedService | 'sesv2',
  kind: 'denied' | 'unknown-key',
  message: string,
): { status: number; type: string; body: string; headers?: Record<string, string> } {
  const requestId = randomUUID();
  if (service === 'sesv2') {
    const type = kind === 'denied' ? 'AccessDeniedException' : 'UnrecognizedClientException';
    return { status: 403, type: 'application/json', body: JSON.stringify({ message }), headers: { 'x-amzn-errortype': type } };
  }
  if (service === 'dynamodb' || service === 'monitoring') {
    const type = kind === 'denied' ? 'AccessDeniedException' : 'UnrecognizedClientException';
    return {
      status: 400,
      type: 'application/x-amz-json-1.0',
      body: JSON.stringify({ __type: `com.amazon.coral.service#${type}`, Message: message }),
    };
  }
  const code = kind === 'denied' ? 'AccessDenied' : 'InvalidClientTokenId';
  const escaped = message.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return {
    status: 403,
    type: 'text/xml',
    body:
      `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>${code}</Code>` +
      `<Message>${escaped}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
  };
}

function deniedMessage(roles: DeployedRoles, principal: string, check: Check, decision: Decision): string {
  const why =
    decision === 'ExplicitlyDenied'
      ? 'with an explicit deny in an identity-based policy'
      : `because no identity-based policy allows the ${check.action} action`;
  return `User: arn:aws:sts::${roles.account}:assumed-role/${principal}/${principal} is not authorized to perform: ${check.action} on resource: ${check.resource} ${why}`;
}

/** The checks one request asks for, or why it cannot be read. */
function checksOf(service: GatedService, request: IncomingMessage, body: Buffer, roles: DeployedRoles): Check[] {
  const target = request.headers['x-amz-target'] as string | undefined;
  if (service === 'dynamodb') {
    const parsed = JSON.parse(body.toString('utf8') || '{}') as DynamoDbRequest;
    return dynamodbChecks(target, parsed, `arn:aws:dynamodb:${roles.region}:${roles.account}`);
  }
  if (service === 'monitoring') {
    // The region the caller signed for: the health reads the stage's region and us-east-1.
    const region = signedRegion(request.headers.authorization) ?? roles.region;
    return monitoringChecks(target, JSON.parse(body.toString('utf8') || '{}') as { Name?: string }, region, roles.account);
  }
  if ((request.url ?? '').startsWith('/v2/')) return sesV2Checks(request.method, request.url!);
  return sesChecks(body.toString('utf8'), `arn:aws:ses:${roles.region}:${roles.account}`);
}

/** A resource as the record keeps it: this stack's table and configuration set back as the placeholders the roles hold. */
function recorded(resource: string, names: StageNames): string {
  for (const [kind, key] of [
    ['table', 'table'],
    ['configuration-set', 'configurationSet'],
  ] as const) {
    const own = `:${kind}/${names[key]}`;
    const at = resource.indexOf(own);
    const end = at + own.length;
    if (at >= 0 && (end === resource.length || resource[end] === '/')) {
      return `${resource.slice(0, at)}:${kind}/${NAME_PLACEHOLDERS[key]}${resource.slice(end)}`;
    }
  }
  return resource;
}

export async function startIamGate(options: IamGateOptions): Promise<RunningServer> {
  const roles = rolesFor(options.roles, options.names);
  const decide = evaluator(roles);
  const upstream = new URL(options.upstream);
  const agent = new Agent({ keepAlive: true });

  const pass = (request: IncomingMessage, response: ServerResponse, body: Buffer, retried = false) => {
    const forwarded = httpRequest(
      {
        agent,
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive socket the stand-in closed as the request went out (Node's documented race,
      // request.reusedSocket): nothing was served, so it is sent again once on a new connection, as
      // the SDK does for its own; otherwise each such race spends one of the caller's attempts.
      if (forwarded.reusedSocket && error.code === 'ECONNRESET' && !retried && !response.headersSent)
        return pass(request, response, body, true);
      // The stand-in is down (a fault under test): the caller sees what a dead endpoint does.
      response.destroy();
    });
    forwarded.end(body);
  };

  const answer = (response: ServerResponse, reply: { status: number; type: string; body: string; headers?: Record<string, string> }) => {
    response.writeHead(reply.status, { 'content-type': reply.type, 'x-amzn-requestid': randomUUID(), ...reply.headers });
    response.end(reply.body);
  };

  const server = createServer((request, response) => {
    void (async () => {
      const body = await buffer(request);
      const principal = signer(request.headers.authorization);
      if (principal === undefined || principal === ADMIN_KEY) return pass(request, response, body);
      const protocol = options.service === 'ses' && (request.url ?? '').startsWith('/v2/') ? 'sesv2' : options.service;
      if (!roles.principals[principal]) {
        return answer(response, refusal(protocol, 'unknown-key', 'The security token included in the request is invalid.'));
      }
      let checks: Check[];
      try {
        checks = checksOf(options.service, request, body, roles);
      } catch (error) {
        const why = error instanceof UnreadableRequestError || error instanceof SyntaxError ? error.message : String(error);
        return answer(response, {
          status: 400,
          type: 'text/plain',
          body: `The IAM gate cannot read this ${options.service} request: ${why}`,
        });
      }
      for (const check of checks) {
        const decision = await decide(principal, check);
        const allowed = decision === 'Allowed';
        options.record?.({ principal, action: check.action, resource: recorded(check.resource, options.names), allowed });
        if (!allowed) return answer(response, refusal(protocol, 'denied', deniedMessage(roles, principal, check, decision)));
      }
      pass(request, response, body);
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`IAM gate: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  const port = await listen(server, options.port ?? 0);
  return {
    url: loopbackUrl(port),
    port,
    close: async () => {
      agent.destroy();
      await closeServer(server);
    },
  };
}

/**
 * A record of every call the gates of a run evaluated: one file per process and thread in
 * `dir`, a line per distinct call, so the check of unused grants can read what the whole suite did.
 */
export function callLog(dir: string): (call: GateCall) => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}-${threadId}.jsonl`);
  const seen = new Set<string>();
  return (call) => {
    const line = JSON.stringify(call);
    if (seen.has(line)) return;
    seen.add(line);
    appendFileSync(file, `${line}\n`);
  };
}
