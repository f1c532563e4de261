/**
 * The AWS API as an operator reads it: the AWS CLI, answering in JSON, pointed at moto. The
 * environment never carries a real profile or credentials, so nothing here can reach AWS.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Fake credentials moto accepts; its account for them is 123456789012. */
export const FAKE_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'deploy-test', AWS_SECRET_ACCESS_KEY: 'deploy-test' } as const;

/** Set by Vitest, Vite's modes and the npm script that started the test: no operator's shell has them. */
const TEST_RUNNER_VARIABLES =
  /^(VITEST\w*|NODE_ENV|TEST|MODE|DEV|PROD|SSR|BASE_URL|CI|npm_(lifecycle|package)_\w+|npm_command|npm_execpath|npm_node_execpath)$/;

/**
 * This process's environment without any AWS or CDK setting or the test runner's own, with
 * fake credentials, every SDK and CLI sent to `endpoint`, and config files that do not exist
 * (no profile is read).
 */
export function isolatedEnvironment(endpoint: string, scratch: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('AWS_') && !name.startsWith('CDK_') && !TEST_RUNNER_VARIABLES.test(name),
    ),
  );
  return {
    ...env,
    ...FAKE_CREDENTIALS,
    AWS_ENDPOINT_URL: endpoint,
    AWS_CONFIG_FILE: join(scratch, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(scratch, 'no-aws-credentials'),
    // moto answers at once or not at all: a retry only delays the failure.
    AWS_MAX_ATTEMPTS: '1',
    // The CLI would otherwise report usage to AWS and look for a newer version on npm.
    CDK_DISABLE_CLI_TELEMETRY: 'true',
    CDK_DISABLE_VERSION_CHECK: '1',
    NO_COLOR: '1',
  };
}

export function checkAwsCli(): void {
  const probe = spawnSync('aws', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) throw new Error('The AWS CLI (aws) is not installed: pip install awscli');
}

export type AwsCli = (region: string, ...args: string[]) => Promise<any>;

/** `aws <args> --region <region> --output json`, parsed; rejects with the CLI's own error line. */
export function awsCli(env: NodeJS.ProcessEnv): AwsCli {
  return async (region, ...args) => {
    try {
      const { stdout } = await run('aws', [...args, '--region', region, '--output', 'json'], { env, maxBuffer: 64 * 1024 * 1024 });
      return stdout.trim() === '' ? undefined : JSON.parse(stdout);
    } catch (error) {
      const { stderr } = error as { stderr?: string };
      throw new Error(`aws ${args.slice(0, 2).join(' ')} in ${region}: ${stderr?.trim() || (error as Error).message}`);
    }
  };
}
