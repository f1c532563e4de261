import { tsImport } from 'tsx/esm/api';

type CdkContextModule = typeof import('@site/core/node/cdk-context');
type ConfigModule = typeof import('@site/core/node/deploy-config');
type FactsModule = typeof import('@site/core/node/content-check');
type ContentIndexModule = typeof import('./content-files');
type SiteContentModule = typeof import('../src/content/site');

/** Where a file of the build names the site's public address: robots.txt, sitemap.xml, the print stylesheet. */
export const SITE_ORIGIN_TOKEN = '%SITE_ORIGIN%';

/** The site's public address from the content (SITE_ORIGIN), for files the build writes it into. */
export async function siteOrigin(): Promise<string> {
  const { SITE_ORIGIN } = (await tsImport('../src/content/site.ts', import.meta.url)) as SiteContentModule;
  return SITE_ORIGIN;
}

/**
 * Checks the firm's facts in the content (phone, KvK, btw-id, postal code, addresses, the
 * site's address) before anything is built, and stops the build or the dev server with one
 * message that lists every problem by file and key. Only that message is printed: a stack
 * trace would hide it from whoever edited the content.
 */
export async function checkContentFacts(): Promise<void> {
  const [{ checkFacts, FactsError }, { CONTENT_FACTS }] = await Promise.all([
    tsImport('@site/core/node/content-check', import.meta.url) as Promise<FactsModule>,
    tsImport('./content-files.ts', import.meta.url) as Promise<ContentIndexModule>,
  ]);
  try {
    checkFacts(CONTENT_FACTS);
  } catch (error) {
    if (!(error instanceof FactsError)) throw error;
    console.error(`\n${error.message}\n`);
    process.exit(1);
  }
}

/**
 * Facts of the deployment that the site's pages quote (the privacy statement, the page for a
 * visitor over the limit), read from the CDK context the stack is synthesized with
 * (cdk.json) by the stack's own code, so the pages and the stack cannot disagree. Vite
 * defines them as globals for the prerender, the client and the dev server alike.
 */
export async function deploymentDefines(): Promise<Record<string, string>> {
  // Vite loads its config with Node's type stripping, which the CDK code's TypeScript goes
  // beyond; tsx compiles it, as it does for the CDK app itself.
  const [{ CDK_JSON_CONTEXT }, { statedSettingsFrom }] = await Promise.all([
    tsImport('@site/core/node/cdk-context', import.meta.url) as Promise<CdkContextModule>,
    tsImport('@site/core/node/deploy-config', import.meta.url) as Promise<ConfigModule>,
  ]);
  const stated = statedSettingsFrom(CDK_JSON_CONTEXT);
  return {
    /** Days a stored contact message is kept (the table's TTL). */
    __RETENTION_DAYS__: JSON.stringify(stated.retentionDays),
    /** The AWS region of the table, the functions and the access logs. */
    __AWS_REGION__: JSON.stringify(stated.region),
    /** The visitor limit's window: how long the counters last. */
    __VISITOR_WINDOW_MINUTES__: JSON.stringify(stated.visitorWindowMinutes),
    /** Days a message marked as spam is kept from then on. */
    __SPAM_RETENTION_DAYS__: JSON.stringify(stated.spamRetentionDays),
  };
}
