/**
 * The on-call guide's origin-secret rotation, run as written against moto's Secrets Manager: the
 * `aws` commands for real, the `npx cdk deploy` steps recorded (moto cannot update a stack)
 * with the secret's state at the moment each would run. What this proves: at no deploy of
 * the procedure can a re-resolved reference give the function a value CloudFront does not
 * send, and the flags each deploy passes are ones the configuration accepts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CDK_JSON_CONTEXT } from '@site/core/node/cdk-context';
import { loadConfig } from '@site/core/node/deploy-config';
import { awsCli, checkAwsCli, isolatedEnvironment, type AwsCli } from './aws-cli';
import { guideText, markedBlocks, ROOT } from './guide';
import { START_SECONDS, startMoto, type Moto } from './moto';

const run = promisify(execFile);
const REGION = 'eu-west-1';

/** The shell block under "Rotating the origin secret", marked `<!-- test:rotation -->`. */
function rotationBlock(): string {
  const blocks = markedBlocks(guideText('on-call.md'), 'rotation', 'docs/on-call.md');
  if (blocks.length !== 1 || blocks[0]!.language !== 'sh') {
    throw new Error(`docs/on-call.md: expected one <!-- test:rotation --> sh block, found ${blocks.length}.`);
  }
  return blocks[0]!.body;
}

/** Which version holds which stage, as `list-secret-version-ids` reports it. */
type Stages = Record<string, string[]>;
const stagesOf = (listing: { Versions: { VersionId: string; VersionStages?: string[] }[] }): Stages =>
  Object.fromEntries(listing.Versions.map((version) => [version.VersionId, [...(version.VersionStages ?? [])].sort()]));

interface Recorded {
  /** The flags the deploy was given, `-c` values resolved by the shell. */
  context: Record<string, string>;
  stages: Stages;
}

let moto: Moto;
let aws: AwsCli;
let secretArn: string;
let firstVersion: string;
let deploys: Recorded[];
let printed: string;

beforeAll(
  async () => {
    checkAwsCli();
    moto = await startMoto();
    const scratch = mkdtempSync(join(tmpdir(), 'rotation-'));
    const env = { ...isolatedEnvironment(moto.endpoint, scratch), AWS_DEFAULT_REGION: REGION };
    aws = awsCli(env);
    // As the stack creates it: a generated value, letters and digits.
    const created = await aws(REGION, 'secretsmanager', 'create-secret', '--name', 'origin-secret', '--secret-string', 'a'.repeat(64));
    secretArn = created.ARN;
    firstVersion = created.VersionId;

    // `npx` stands in for the CDK: it records its arguments and the secret's stages right then.
    const log = join(scratch, 'deploys.jsonl');
    const recorder = [
      'npx() {',
      `  printf '%s\\t%s\\n' "$*" "$(aws secretsmanager list-secret-version-ids --secret-id "$SECRET" --output json | tr -d '\\n')" >> '${log}'`,
      '}',
    ].join('\n');
    const script = `set -euo pipefail\n${recorder}\n${rotationBlock().replace('<OriginSecretArn>', secretArn)}\n`;
    writeFileSync(join(scratch, 'rotation.sh'), script);
    printed = (await run('bash', [join(scratch, 'rotation.sh')], { env, cwd: ROOT })).stdout;
    deploys = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => {
        const [command, listing] = line.split('\t') as [string, string];
        const context = Object.fromEntries([...command.matchAll(/-c (\w+)=(\S+)/g)].map(([, key, value]) => [key!, value!]));
        return { context, stages: stagesOf(JSON.parse(listing)) };
      });
  },
  (START_SECONDS + 60) * 1000,
);

afterAll(async () => {
  await moto?.stop();
});

describe('the origin-secret rotation in the on-call guide', () => {
  it('names OLD and NEW, and runs two deploys', () => {
    expect(printed).toMatch(new RegExp(`^OLD=${firstVersion} NEW=[0-9a-f-]{36}$`, 'm'));
    expect(deploys).toHaveLength(2);
  });

  it('keeps AWSCURRENT on OLD until both sides name their versions, so a deploy in between changes nothing', () => {
    const NEW = deploys[0]!.context.originSecretVersion!;
    for (const { stages } of deploys) {
      expect(stages[firstVersion]).toContain('AWSCURRENT');
      expect(stages[NEW]).toEqual(['AWSPENDING']);
    }
  });

  it('has CloudFront send NEW while the function accepts NEW and OLD, then NEW alone, with flags the configuration accepts', () => {
    const [changeOver, settled] = deploys as [Recorded, Recorded];
    expect(changeOver.context).toEqual({
      originSecretVersion: changeOver.context.originSecretVersion,
      originSecretPreviousVersion: firstVersion,
    });
    expect(settled.context).toEqual({ originSecretVersion: changeOver.context.originSecretVersion });
    for (const { context } of deploys) {
      const config = loadConfig({
        ...CDK_JSON_CONTEXT,
        contactRecipient: 'info@streepjevoorfinance.nl',
        senderAddress: 'website@streepjevoorfinance.nl',
        ...context,
      });
      expect(config.originSecretVersion).toBe(changeOver.context.originSecretVersion);
    }
  });

  it('ends with NEW current, OLD previous and nothing pending; NEW holds a new generated value', async () => {
    const NEW = deploys[0]!.context.originSecretVersion!;
    const stages = stagesOf(await aws(REGION, 'secretsmanager', 'list-secret-version-ids', '--secret-id', secretArn));
    expect(stages[NEW]).toEqual(['AWSCURRENT']);
    expect(stages[firstVersion]).toEqual(['AWSPREVIOUS']);
    const value = (await aws(REGION, 'secretsmanager', 'get-secret-value', '--secret-id', secretArn, '--version-stage', 'AWSCURRENT'))
      .SecretString as string;
    expect(value).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(value).not.toBe('a'.repeat(64));
  });
});
