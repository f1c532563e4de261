/**
 * The CDK app: `npx cdk synth | diff | deploy` from the repository root (cdk.json).
 * `-c stage=prod` deploys a second, independent copy beside `test`.
 */
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { buildApp } from '../lib/app';

buildApp(new App(), { siteDir: join(import.meta.dirname, '..', '..', 'frontend', 'dist') });
