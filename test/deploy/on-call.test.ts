/**
 * The on-call guide (docs/on-call.md), run as written against moto's AWS API server: a release,
 * a newer release, a roll back to the first, and a restore of the message table to a point in
 * time, each with the guide's marked block, in a terminal, with the real CDK CLI.
 *
 * The operator works in a git clone of this repository's HEAD commit (uncommitted changes are not
 * part of it), as the firm's repository: its `origin` is a bare repository of the test's own, so
 * `git pull` and `git push origin --tags` never leave the scratch directory. The stage's settings
 * are committed in its cdk.json, as the first-deploy guide has the operator do, and a developer's
 * clone of the same origin pushes the newer release. The accounts and regions were bootstrapped
 * before (deploy-guide.test.ts runs the guide's bootstrap).
 *
 * What moto cannot show here is what it cannot show for the first deploy (deploy-guide.test.ts):
 * the site upload's copy into the bucket, CloudFront, the HTTP API, `npm run smoke`. So the roll
 * back is proven on what the deploy hands over: the contact function's code (Lambda's
 * CodeSha256), the site build the upload copies (the deployed template's source key), the
 * table (the same one, with its messages), and the tag the guide has the operator push.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configurationSetName, siteStackName } from '@site/core/names';
import { awsCli, checkAwsCli, isolatedEnvironment, type AwsCli } from './aws-cli';
import { contactRequest, invoke, unpackDeployedFunction, type DeployedFunction } from './deployed-function';
import { stackResources } from './deployed';
import { guideText, readGuide, ROOT } from './guide';
import { guideRunner, type GuideRunner, type NotAgainstMoto } from './guide-runner';
import { START_SECONDS, startMoto, type Moto } from './moto';
import { checkTerminal, runInTerminal, tail } from './operator';

const run = promisify(execFile);
const GUIDE = 'docs/on-call.md';
const onCall = guideText('on-call.md');
const RELEASE = readGuide(onCall, 'release', GUIDE);
const ROLLBACK = readGuide(onCall, 'rollback', GUIDE);
const RESTORE = readGuide(onCall, 'restore', GUIDE);

const REGION = 'eu-west-1';
/** Stands in for the firm's domain: the synth accepts it, and moto sends mail nowhere. */
const FIRM_DOMAIN = 'moto-oncall-test.nl';
const STAGE = 'test';
const STACK = siteStackName(STAGE);
/** One command of a block may be `npm ci` on a loaded machine, or a synth and a deploy. */
const COMMAND_TIMEOUT_MS = 300_000;
/** A whole block: a release is an install, a build, a diff and a deploy. */
const BLOCK_TIMEOUT_MS = 1_200_000;

const NOT_AGAINST_MOTO: NotAgainstMoto[] = [
  {
    command: /^npm run smoke\b/,
    reason: 'the smoke check requests the site through CloudFront and the API through API Gateway; moto provisions neither',
  },
];

let moto: Moto;
let scratch: string;
/** The firm's repository as the operator has it checked out. */
let firm: string;
let env: NodeJS.ProcessEnv;
let aws: AwsCli;
let account: string;

const git = async (cwd: string, ...args: string[]) => (await run('git', args, { cwd, env })).stdout.trim();

/** What a release handed over to the stage: the contact function's code and the site build the upload copies. */
interface Deployed {
  commit: string;
  codeSha256: string;
  siteSource: string[];
  table: string;
}

async function deployed(): Promise<Deployed> {
  const resources = await stackResources(aws, REGION, STACK);
  const physical = (type: string, name: RegExp) =>
    resources.find((resource) => resource.type === type && name.test(resource.physicalId))!.physicalId;
  const contact = await aws(
    REGION,
    'lambda',
    'get-function-configuration',
    '--function-name',
    physical('AWS::Lambda::Function', /-send-contact-email$/),
  );
  const { TemplateBody } = await aws(REGION, 'cloudformation', 'get-template', '--stack-name', STACK);
  const template = typeof TemplateBody === 'string' ? JSON.parse(TemplateBody) : TemplateBody;
  const siteSource = Object.values<any>(template.Resources)
    .filter((resource) => resource.Type === 'Custom::CDKBucketDeployment')
    .flatMap((upload) => upload.Properties.SourceObjectKeys as string[]);
  return {
    commit: await git(firm, 'rev-parse', 'HEAD'),
    codeSha256: contact.CodeSha256,
    siteSource: [...new Set(siteSource)],
    table: physical('AWS::DynamoDB::Table', /./),
  };
}

/** The deployed contact function's package, unpacked to run with its environment. */
async function contactFunction(name: string): Promise<DeployedFunction> {
  const resources = await stackResources(aws, REGION, STACK);
  const fn = resources.find(
    (resource) => resource.type === 'AWS::Lambda::Function' && resource.physicalId.endsWith('-send-contact-email'),
  )!;
  const configuration = await aws(REGION, 'lambda', 'get-function-configuration', '--function-name', fn.physicalId);
  const { TemplateBody } = await aws(REGION, 'cloudformation', 'get-template', '--stack-name', STACK);
  const template = typeof TemplateBody === 'string' ? JSON.parse(TemplateBody) : TemplateBody;
  const deployed = await unpackDeployedFunction({
    aws,
    name: 'send-contact-email',
    region: REGION,
    account,
    s3Key: template.Resources[fn.logicalId].Properties.Code.S3Key,
    configuration,
    scratch: join(scratch, name),
    endpoint: moto.endpoint,
    names: {
      table: configuration.Environment.Variables.TABLE_NAME,
      senderAddress: `website@${FIRM_DOMAIN}`,
      configurationSet: configurationSetName(STAGE),
    },
  });
  unpacked.push(deployed);
  return deployed;
}

/** Every deployed function unpacked, whose IAM gates close after the tests. */
const unpacked: DeployedFunction[] = [];

/** A visitor's message, stored through the deployed function; its id. */
async function sendMessage(fn: DeployedFunction, visitor: { name: string; email: string; message: string }): Promise<string> {
  const [answer] = await invoke(fn, [contactRequest(fn, visitor, fn.originSecret)]);
  expect(answer!.status, JSON.stringify(answer!.body)).toBe(200);
  return answer!.body.id;
}

async function storedItem(table: string, id: string): Promise<Record<string, any> | undefined> {
  return (await aws(REGION, 'dynamodb', 'get-item', '--table-name', table, '--consistent-read', '--key', JSON.stringify({ id: { S: id } })))
    ?.Item;
}

/** The `<stage>-…` tags, newest first, and the commit each names. */
async function releaseTags(): Promise<{ tag: string; commit: string }[]> {
  const tags = (await git(firm, 'tag', '--list', `${STAGE}-*`, '--sort=-creatordate')).split('\n').filter(Boolean);
  return Promise.all(tags.map(async (tag) => ({ tag, commit: await git(firm, 'rev-list', '-n', '1', tag) })));
}

function operator(guide: typeof RELEASE): GuideRunner {
  return guideRunner(guide, GUIDE, { cwd: firm, env, notAgainstMoto: NOT_AGAINST_MOTO, timeoutMs: COMMAND_TIMEOUT_MS });
}

/** Runs a whole block (each command must succeed) and says which commands it did not run. */
async function runBlock(guide: typeof RELEASE, values: Record<string, string>) {
  const runner = operator(guide);
  await runner.through(undefined, values);
  expect(runner.ran.length + runner.notRun.length).toBe(guide.commands.length);
  for (const { command, reason } of runner.notRun) console.info(`Not run against moto: \`${command}\`: ${reason}.`);
  return runner;
}

beforeAll(
  async () => {
    moto = await startMoto();
    checkAwsCli();
    checkTerminal();
    scratch = mkdtempSync(join(tmpdir(), 'on-call-'));
    // The stage's region as the guide has the operator set it, for npm run messages and the AWS CLI v1.
    env = { ...isolatedEnvironment(moto.endpoint, scratch), AWS_REGION: REGION, AWS_DEFAULT_REGION: REGION, GIT_TERMINAL_PROMPT: '0' };
    aws = awsCli(env);
    account = (await aws(REGION, 'sts', 'get-caller-identity')).Account;

    // The firm's repository: a bare origin holding this commit as main, and the operator's clone.
    const origin = join(scratch, 'origin.git');
    await run('git', ['init', '--quiet', '--bare', '--initial-branch=main', origin], { env });
    await git(origin, 'fetch', '--quiet', ROOT, 'HEAD:refs/heads/main');
    firm = join(scratch, 'firm');
    await run('git', ['clone', '--quiet', origin, firm], { env });
    await git(firm, 'config', 'user.name', 'On call');
    await git(firm, 'config', 'user.email', `ops@${FIRM_DOMAIN}`);
    // The stage's settings, committed as the first-deploy guide has the operator do.
    const cdkJson = join(firm, 'cdk.json');
    const config = JSON.parse(readFileSync(cdkJson, 'utf8'));
    config.context = {
      ...config.context,
      stage: STAGE,
      region: REGION,
      contactRecipient: `info@${FIRM_DOMAIN}`,
      senderAddress: `website@${FIRM_DOMAIN}`,
      alarmEmail: `ops@${FIRM_DOMAIN}`,
    };
    writeFileSync(cdkJson, `${JSON.stringify(config, null, 2)}\n`);
    await git(firm, 'commit', '--quiet', '--all', '--message', 'The firm’s settings for the test stage');
    await git(firm, 'push', '--quiet', 'origin', 'main');

    // Bootstrapped once per account and region (the first-deploy guide's step), outside any app.
    const bootstrap = await runInTerminal(
      `${join(ROOT, 'node_modules', '.bin', 'cdk')} bootstrap aws://${account}/${REGION} aws://${account}/us-east-1`,
      { cwd: scratch, env, timeoutMs: COMMAND_TIMEOUT_MS },
    );
    expect(bootstrap.exitCode, tail(bootstrap)).toBe(0);
  },
  COMMAND_TIMEOUT_MS + (START_SECONDS + 60) * 1000,
);

afterAll(async () => {
  await Promise.all(unpacked.map((fn) => fn.close()));
  await moto?.stop();
  // The operator's clone holds a whole node_modules: minutes to delete on a busy machine.
  if (scratch) await rm(scratch, { recursive: true, force: true });
}, COMMAND_TIMEOUT_MS);

let first: Deployed;
let second: Deployed;
let messageOfTheSecond: { id: string; email: string };

describe('the on-call guide, run as written against moto', () => {
  it(
    'releases the firm’s main branch with the release block, and tags and pushes what runs',
    async () => {
      await runBlock(RELEASE, { '<stage>': STAGE });
      first = await deployed();
      expect((await aws(REGION, 'cloudformation', 'describe-stacks', '--stack-name', STACK)).Stacks[0].StackStatus).toBe('CREATE_COMPLETE');
      const [newest] = await releaseTags();
      expect(newest!.commit).toBe(first.commit);
      expect(await git(join(scratch, 'origin.git'), 'tag', '--list', newest!.tag)).toBe(newest!.tag);
    },
    BLOCK_TIMEOUT_MS,
  );

  it(
    'releases a newer commit the same way: a stack update, with new function code and a new site',
    async () => {
      // A developer pushes a change to the functions and the site.
      const developer = join(scratch, 'developer');
      await run('git', ['clone', '--quiet', join(scratch, 'origin.git'), developer], { env });
      await git(developer, 'config', 'user.name', 'Developer');
      await git(developer, 'config', 'user.email', `dev@${FIRM_DOMAIN}`);
      appendFileSync(join(developer, 'lambda', 'src', 'handlers', 'send-contact-email.ts'), '\nexport const release = 2;\n');
      mkdirSync(join(developer, 'frontend', 'public'), { recursive: true });
      writeFileSync(join(developer, 'frontend', 'public', 'release.txt'), 'release 2\n');
      await git(developer, 'add', '--all');
      await git(developer, 'commit', '--quiet', '--message', 'Release 2');
      await git(developer, 'push', '--quiet', 'origin', 'main');

      await runBlock(RELEASE, { '<stage>': STAGE });
      second = await deployed();
      expect((await aws(REGION, 'cloudformation', 'describe-stacks', '--stack-name', STACK)).Stacks[0].StackStatus).toBe('UPDATE_COMPLETE');
      expect(second.commit).not.toBe(first.commit);
      expect(second.codeSha256).not.toBe(first.codeSha256);
      expect(second.siteSource).not.toEqual(first.siteSource);
      expect(second.table).toBe(first.table);
      expect((await releaseTags()).map(({ commit }) => commit)).toEqual([second.commit, first.commit]);

      // A visitor writes while the newer release runs.
      const visitor = { name: 'Bezoeker Twee', email: `twee@${FIRM_DOMAIN}`, message: 'Geschreven onder de tweede release.' };
      messageOfTheSecond = { id: await sendMessage(await contactFunction('second'), visitor), email: visitor.email };
    },
    BLOCK_TIMEOUT_MS,
  );

  it(
    'rolls back to the last good release with the roll-back block: its code and site again, the same table, every message kept',
    async () => {
      const [bad, good] = await releaseTags();
      expect(bad!.commit).toBe(second.commit);
      await runBlock(ROLLBACK, { '<stage>': STAGE, '<tag>': good!.tag });

      const now = await deployed();
      expect(now.commit).toBe(first.commit);
      expect(now.codeSha256, 'the contact function runs the first release’s code').toBe(first.codeSha256);
      expect(now.siteSource, 'the upload copies the first release’s site').toEqual(first.siteSource);
      expect(now.table, 'the same table').toBe(first.table);
      expect((await aws(REGION, 'cloudformation', 'describe-stacks', '--stack-name', STACK)).Stacks[0].StackStatus).toBe('UPDATE_COMPLETE');
      expect(await storedItem(now.table, messageOfTheSecond.id), 'a message stored under the bad release is still there').toMatchObject({
        email: { S: messageOfTheSecond.email },
      });
      // The newest tag names what runs now, and is pushed.
      const [newest] = await releaseTags();
      expect(newest!.commit).toBe(first.commit);
      expect(newest!.tag).not.toBe(good!.tag);
      expect(await git(join(scratch, 'origin.git'), 'tag', '--list', newest!.tag)).toBe(newest!.tag);
    },
    BLOCK_TIMEOUT_MS,
  );

  it(
    'restores the message table to a point in time with the restore block: lost messages back, newer ones untouched, erasures repeated',
    async () => {
      const fn = await contactFunction('restore');
      const table = first.table;
      const lost = { name: 'Bezoeker Drie', email: `drie@${FIRM_DOMAIN}`, message: 'Per vergissing gewist.' };
      const erased = { name: 'Bezoeker Vier', email: `vier@${FIRM_DOMAIN}`, message: 'Wil gewist worden.' };
      const lostId = await sendMessage(fn, lost);
      const erasedId = await sendMessage(fn, erased);
      const before = await storedItem(table, lostId);

      // The last good moment, to the second, as the guide asks for it.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const restorePoint = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      await new Promise((resolve) => setTimeout(resolve, 1_500));

      // After it: an erase of the wrong address (the damage), an erasure request answered, a new message.
      for (const address of [lost.email, erased.email]) {
        const erase = await runInTerminal(`npm run messages -- erase ${address} --yes --stage ${STAGE}`, {
          cwd: firm,
          env,
          timeoutMs: COMMAND_TIMEOUT_MS,
        });
        expect(erase.exitCode, tail(erase)).toBe(0);
        expect(erase.output).toContain('Deleted 1 message');
      }
      const newer = { name: 'Bezoeker Vijf', email: `vijf@${FIRM_DOMAIN}`, message: 'Na het herstelpunt.' };
      const newerId = await sendMessage(fn, newer);
      expect(await storedItem(table, lostId)).toBeUndefined();

      const runner = await runBlock(RESTORE, {
        '<TableName>': table,
        '<time before the damage>': restorePoint,
        '<stage>': STAGE,
        '<address of each erasure request answered since then>': erased.email,
      });
      const [dryRun, applied] = runner.ran.filter((r) => r.command.includes('restore-from'));
      expect(dryRun!.output).toMatch(new RegExp(`3 messages in ${table}-restored: 2 missing from ${table}, 1 already there`));
      expect(applied!.output).toMatch(
        new RegExp(`Put back 2 messages \\(and 2 idempotency records\\) into ${table}; left 1 message already there`),
      );

      expect(await storedItem(table, lostId), 'the message erased by mistake is back, as it was').toEqual(before);
      expect(await storedItem(table, erasedId), 'the answered erasure request holds again').toBeUndefined();
      expect(await storedItem(table, newerId), 'a message from after the restore point is untouched').toMatchObject({
        email: { S: newer.email },
      });
      expect(await storedItem(table, messageOfTheSecond.id)).toMatchObject({ email: { S: messageOfTheSecond.email } });
      const { TableNames } = await aws(REGION, 'dynamodb', 'list-tables');
      expect(TableNames, 'the restored copy is deleted').toEqual([table]);
    },
    BLOCK_TIMEOUT_MS,
  );
});
