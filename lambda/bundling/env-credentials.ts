/**
 * Substituted for the AWS SDK's default credential chain in the Lambda bundle (see
 * bundle.ts). Lambda always hands a function its role's credentials in AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, and the default chain takes them from there
 * first. The rest of the chain (profiles, SSO, STS, instance metadata) is a third of the
 * bundle, compiled on every cold start and never run. Code run from source (the local
 * stack, `npm run messages`) keeps the whole chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
