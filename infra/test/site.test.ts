/**
 * Storage of the site, CloudFront, the edge functions (executed), the uploads and cdk-nag,
 * on the default configuration from cdk.json.
 */
import { ACCESS_LOG_RETENTION_DAYS } from '@site/core/access-logs';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { HELD_LINK_PARAMETER, IDEMPOTENCY_HEADER } from '@site/core/contract';
import {
  API_CLOUDFRONT_HEADERS,
  API_VIEWER_HEADERS,
  ORIGIN_VERIFY_HEADER,
  VIEWER_ADDRESS_HEADER,
  VIEWER_HOST_HEADER,
} from '@site/core/api-origin';
import { CACHE_CONTROL, cacheControlFor } from '@site/core/cache-control';
import { createHash } from 'node:crypto';
import { SITE_INLINE_SCRIPT } from '@site/testing/fixtures/site';
import { securityHeaders } from '@site/core/node/security-headers';
import { CLOUDFRONT_TYPED_HEADERS, responseHeadersSettings } from '../lib/response-headers';
import { listSiteFiles } from '@site/core/node/site-files';
import { SiteStack } from '../lib/site-stack';
import { App, Stack } from 'aws-cdk-lib';
import { Version } from 'aws-cdk-lib/aws-lambda';
import { loadConfig } from '@site/core/node/deploy-config';
import { CDK_JSON_CONTEXT, expectNoFindings, only, SITE_FILES, synth, TEST_ADDRESSES, type Synthesized } from './synth';

let s: Synthesized;
let distribution: any;
beforeAll(() => {
  s = synth();
  distribution = only(s.template, 'AWS::CloudFront::Distribution').resource.Properties.DistributionConfig;
});

describe('cdk-nag and CDK warnings', () => {
  it('leaves no finding unacknowledged and no annotation', () => {
    expectNoFindings(s.app, [s.site, s.apiEdge, s.edgeAlarms]);
  });
});

describe('site bucket', () => {
  const siteBucket = () => {
    const origin = distribution.Origins.find((o: any) => o.S3OriginConfig);
    return s.template.toJSON().Resources[origin.DomainName['Fn::GetAtt'][0]];
  };

  it('blocks all public access, is encrypted, versioned and retained, except when its create rolls back', () => {
    const bucket = siteBucket();
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([
      { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
    ]);
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(bucket.UpdateReplacePolicy).toBe('Retain');
    expect(bucket.Properties.BucketName).toBeUndefined();
  });

  it('is readable and listable only by this distribution through Origin Access Control, over TLS', () => {
    const bucketId = distribution.Origins.find((o: any) => o.S3OriginConfig).DomainName['Fn::GetAtt'][0];
    const policy = only(s.template, 'AWS::S3::BucketPolicy', { Bucket: { Ref: bucketId } }).resource;
    const bucketArn = { 'Fn::GetAtt': [bucketId, 'Arn'] };
    const objects = { 'Fn::Join': ['', [bucketArn, '/*']] };
    const distributionId = only(s.template, 'AWS::CloudFront::Distribution').id;
    expect(policy.Properties.PolicyDocument.Statement).toEqual([
      {
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 's3:*',
        Resource: [bucketArn, objects],
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      },
      {
        Effect: 'Allow',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        // ListBucket lets S3 answer a missing object with 404 instead of 403.
        Action: ['s3:GetObject', 's3:ListBucket'],
        Resource: [bucketArn, objects],
        Condition: {
          StringEquals: {
            'AWS:SourceArn': {
              'Fn::Join': [
                '',
                ['arn:', { Ref: 'AWS::Partition' }, ':cloudfront::', { Ref: 'AWS::AccountId' }, ':distribution/', { Ref: distributionId }],
              ],
            },
          },
        },
      },
    ]);
    s.template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    s.template.resourceCountIs('AWS::CloudFront::CloudFrontOriginAccessIdentity', 0);
    const origin = distribution.Origins.find((o: any) => o.S3OriginConfig);
    expect(origin.OriginAccessControlId).toBeDefined();
    expect(origin.S3OriginConfig.OriginAccessIdentity).toBe('');
  });

  it('sends CloudFront and S3 access logs to a private, encrypted bucket that forgets them after 90 days', () => {
    const logBucketId = distribution.Logging.Bucket['Fn::GetAtt'][0];
    const logBucket = s.template.toJSON().Resources[logBucketId];
    expect(logBucket.Properties.PublicAccessBlockConfiguration.BlockPublicAcls).toBe(true);
    expect(logBucket.Properties.BucketEncryption).toBeDefined();
    expect(logBucket.Properties.OwnershipControls.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerPreferred' }]);
    expect(logBucket.DeletionPolicy).toBe('RetainExceptOnCreate');
    // The privacy statement quotes the same number (the synth checks the built page against it).
    expect(logBucket.Properties.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({ ExpirationInDays: ACCESS_LOG_RETENTION_DAYS, Status: 'Enabled' }),
    ]);
    const logPolicy = only(s.template, 'AWS::S3::BucketPolicy', { Bucket: { Ref: logBucketId } }).resource;
    expect(logPolicy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    expect(siteBucket().Properties.LoggingConfiguration).toEqual({ DestinationBucketName: { Ref: logBucketId }, LogFilePrefix: 's3/' });
  });
});

describe('distribution', () => {
  it('redirects to HTTPS, speaks HTTP/2 and HTTP/3, compresses and serves index.html at the root', () => {
    expect(distribution.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(distribution.DefaultCacheBehavior.Compress).toBe(true);
    expect(distribution.HttpVersion).toBe('http2and3');
    expect(distribution.DefaultRootObject).toBe('index.html');
    expect(distribution.Logging.Prefix).toBe('cloudfront/');
  });

  it('has no distribution-wide custom error responses, which would rewrite the API errors', () => {
    expect(distribution.CustomErrorResponses).toBeUndefined();
  });

  it('sends /api/* uncached, with every method, the origin secret and only the headers the function reads, to the HTTP API over HTTPS', () => {
    expect(distribution.CacheBehaviors).toHaveLength(1);
    const api = distribution.CacheBehaviors[0];
    expect(api.PathPattern).toBe('/api/*');
    expect(api.AllowedMethods.sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    expect(api.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // Managed-CachingDisabled
    expect(api.ViewerProtocolPolicy).toBe('https-only');
    expect(api.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: expect.anything() }]);
    const origin = distribution.Origins.find((o: any) => o.Id === api.TargetOriginId);
    expect(origin.CustomOriginConfig).toEqual({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    expect(JSON.stringify(origin.DomainName)).toContain(s.site.getLogicalId(s.site.api.node.defaultChild as never));
    expect(origin.OriginCustomHeaders.map((header: any) => header.HeaderName)).toEqual([ORIGIN_VERIFY_HEADER]);
  });

  it('forwards to the API the viewer headers the function reads, CloudFront-Viewer-Address and -Forwarded-Proto, never Host, no cookies, of the query only the held page’s link', () => {
    const api = distribution.CacheBehaviors[0];
    const policy = s.template.toJSON().Resources[api.OriginRequestPolicyId.Ref].Properties.OriginRequestPolicyConfig;
    // Host would make API Gateway refuse the request (it answers only to its own name); the
    // API's CloudFront Function passes it on as X-Viewer-Host, for the cross-site check with
    // Origin, Sec-Fetch-Site, Referer (AWS's own managed policy UserAgentRefererHeaders forwards
    // it) and the scheme CloudFront reports; the outside check's marker, or its post would reach
    // the function as a visitor's message.
    expect(policy.HeadersConfig).toEqual({
      HeaderBehavior: 'whitelist',
      Headers: [
        'Content-Type',
        IDEMPOTENCY_HEADER,
        'Origin',
        'Sec-Fetch-Site',
        'Referer',
        VIEWER_HOST_HEADER,
        'X-Outside-Check',
        VIEWER_ADDRESS_HEADER,
        'CloudFront-Forwarded-Proto',
      ],
    });
    // CloudFront's quota: at most 10 headers in an origin request policy.
    expect(policy.HeadersConfig.Headers.length).toBeLessThanOrEqual(10);
    expect(policy.HeadersConfig.Headers).toEqual([...API_VIEWER_HEADERS, ...API_CLOUDFRONT_HEADERS]);
    expect(policy.CookiesConfig).toEqual({ CookieBehavior: 'none' });
    // The digest's link to the page of held messages carries its signed token (decision 0048); nothing else goes on.
    expect(policy.QueryStringsConfig).toEqual({ QueryStringBehavior: 'whitelist', QueryStrings: [HELD_LINK_PARAMETER] });
  });

  it('caches the site by the Cache-Control each object carries', () => {
    expect(distribution.DefaultCacheBehavior.CachePolicyId).toBe('658327ea-f89d-4fab-a63d-7e88639e58f6'); // Managed-CachingOptimized
  });
});

describe('security headers', () => {
  it('sends exactly securityHeaders(siteDir), overriding any origin, on the site and the API', () => {
    const { id, resource } = only(s.template, 'AWS::CloudFront::ResponseHeadersPolicy');
    const config = resource.Properties.ResponseHeadersPolicyConfig;
    const security = config.SecurityHeadersConfig;
    const hsts = security.StrictTransportSecurity;
    // The headers as CloudFront writes them from these settings.
    const sent: Record<string, string> = {
      'Content-Security-Policy': security.ContentSecurityPolicy.ContentSecurityPolicy,
      'Strict-Transport-Security': `max-age=${hsts.AccessControlMaxAgeSec}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}${hsts.Preload ? '; preload' : ''}`,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': security.FrameOptions.FrameOption,
      'Referrer-Policy': security.ReferrerPolicy.ReferrerPolicy,
      ...Object.fromEntries(config.CustomHeadersConfig.Items.map((item: any) => [item.Header, item.Value])),
    };
    expect(Object.keys(security).sort()).toEqual(
      ['ContentSecurityPolicy', 'ContentTypeOptions', 'FrameOptions', 'ReferrerPolicy', 'StrictTransportSecurity'].sort(),
    );
    expect(sent).toEqual(securityHeaders(s.siteDir));
    // The build's inline script, by its hash: the same CSP the local edge sends.
    const hash = createHash('sha256').update(SITE_INLINE_SCRIPT).digest('base64');
    expect(sent['Content-Security-Policy']!.split('; ')).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(hsts.AccessControlMaxAgeSec).toBe(31_536_000);
    // HTTPS for this host only: subdomains of the firm's domain are not the stack's to decide.
    expect(hsts.IncludeSubdomains).toBe(false);
    for (const setting of [...Object.values(security), ...config.CustomHeadersConfig.Items]) expect(setting.Override).toBe(true);
    expect(distribution.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: id });
    expect(distribution.CacheBehaviors[0].ResponseHeadersPolicyId).toEqual({ Ref: id });
  });

  it('refuses at synth a header value CloudFront cannot send as written', () => {
    expect(() => responseHeadersSettings({ 'Strict-Transport-Security': 'max-age=1; includesubdomains' })).toThrow(
      /Strict-Transport-Security/,
    );
    expect(() => responseHeadersSettings({ 'X-Frame-Options': 'ALLOW-FROM https://example.nl' })).toThrow(/X-Frame-Options/);
    expect(() => responseHeadersSettings({ 'Referrer-Policy': 'same-site-only' })).toThrow(/Referrer-Policy/);
  });

  it('refuses at synth a header CloudFront types but this app does not translate, instead of sending it as a custom header', () => {
    for (const name of ['X-XSS-Protection', 'x-xss-protection']) {
      expect(() => responseHeadersSettings({ ...securityHeaders(s.siteDir), [name]: '1; mode=block' })).toThrow(
        `SECURITY_HEADERS ${name}: CloudFront sets it only through the typed setting xssProtection of a response headers policy`,
      );
    }
    const typed = Object.values(CLOUDFRONT_TYPED_HEADERS).map((name) => name.toLowerCase());
    const { customHeadersBehavior } = responseHeadersSettings(securityHeaders(s.siteDir));
    expect(customHeadersBehavior.customHeaders.map(({ header }) => header)).toEqual(['Permissions-Policy', 'Cross-Origin-Opener-Policy']);
    expect(customHeadersBehavior.customHeaders.filter(({ header }) => typed.includes(header.toLowerCase()))).toEqual([]);
  });
});

describe('edge functions (the synthesized code, executed)', () => {
  type Handler = (event: unknown) => any;
  let viewerRequest: Handler;
  let viewerResponse: Handler;

  beforeAll(() => {
    const associations = distribution.DefaultCacheBehavior.FunctionAssociations;
    const codeOf = (eventType: string): Handler => {
      const association = associations.find((a: any) => a.EventType === eventType);
      const fn = s.template.toJSON().Resources[association.FunctionARN['Fn::GetAtt'][0]];
      expect(fn.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
      expect(fn.Properties.AutoPublish).toBe(true);
      // CloudFront runs function code in strict mode.
      return runInNewContext(`'use strict';\n${fn.Properties.FunctionCode}\n;handler`, {}) as Handler;
    };
    expect(associations).toHaveLength(2);
    viewerRequest = codeOf('viewer-request');
    viewerResponse = codeOf('viewer-response');
  });

  const request = (uri: string, headers: Record<string, { value: string }> = {}) => ({
    method: 'GET',
    uri,
    querystring: {},
    headers: { host: { value: 'example.nl' }, ...headers },
    cookies: {},
  });
  const viewerRequestEvent = (uri: string) => ({
    version: '1.0',
    context: { eventType: 'viewer-request' },
    viewer: { ip: '192.0.2.1' },
    request: request(uri),
  });
  const viewerResponseEvent = (seenRequest: ReturnType<typeof request>, statusCode = 200) => ({
    version: '1.0',
    context: { eventType: 'viewer-response' },
    viewer: { ip: '192.0.2.1' },
    request: seenRequest,
    response: { statusCode, statusDescription: 'OK', headers: {}, cookies: {} },
  });

  // uri asked → uri fetched from S3, status the viewer gets
  const cases: [string, string, number][] = [
    ['/', '/index.html', 200],
    ['/index.html', '/index.html', 200],
    ['/404.html', '/404.html', 200],
    // A page at its clean URL, and by its file name.
    ['/privacy', '/privacy.html', 200],
    ['/privacy.html', '/privacy.html', 200],
    ['/privacy/', '/404.html', 404],
    ['/index', '/404.html', 404],
    ['/robots.txt', '/robots.txt', 200],
    ['/favicon.svg', '/favicon.svg', 200],
    ['/assets/index-Ab12Cd34.js', '/assets/index-Ab12Cd34.js', 200],
    // A previous build's asset: still in the bucket (no prune), so it goes to S3, which says
    // 404 for one that is not there (the distribution may list the bucket).
    ['/assets/index-0ld0ld00.js', '/assets/index-0ld0ld00.js', 200],
    ['/does-not-exist', '/404.html', 404],
    ['/foo/bar', '/404.html', 404],
    ['/index.html/', '/404.html', 404],
    ['/assets', '/404.html', 404],
    ['/ROBOTS.TXT', '/404.html', 404],
    // Never reaches these functions (the /api/* behaviour has none), but would not leak through.
    ['/api/send-contact-email', '/404.html', 404],
  ];

  it.each(cases)('viewer request %s fetches %s', (uri, fetched) => {
    const result = viewerRequest(viewerRequestEvent(uri));
    expect(result.uri).toBe(fetched);
    expect(result.method).toBe('GET');
  });

  it.each(cases)(
    'viewer response for %s (%s fetched) has status %i, whether it sees the original or the rewritten request',
    (uri, _fetched, status) => {
      const asSent = request(uri);
      const asRewritten = viewerRequest(viewerRequestEvent(uri));
      for (const seen of [asSent, asRewritten]) {
        const response = viewerResponse(viewerResponseEvent(structuredClone(seen)));
        expect(response.statusCode).toBe(status);
        if (status === 404) expect(response.statusDescription).toBe('Not Found');
      }
    },
  );

  it('leaves a 304 alone: the browser revalidated the 404 page it already holds', () => {
    expect(viewerResponse(viewerResponseEvent(request('/does-not-exist'), 304)).statusCode).toBe(304);
  });

  describe('on /api/*', () => {
    let apiRequest: Handler;
    beforeAll(() => {
      const [association] = distribution.CacheBehaviors[0].FunctionAssociations;
      const fn = s.template.toJSON().Resources[association.FunctionARN['Fn::GetAtt'][0]];
      expect(fn.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
      apiRequest = runInNewContext(`'use strict';\n${fn.Properties.FunctionCode}\n;handler`, {}) as Handler;
    });
    const apiEvent = (headers: Record<string, { value: string }>) => ({
      version: '1.0',
      context: { eventType: 'viewer-request' },
      viewer: { ip: '192.0.2.1' },
      request: { method: 'POST', uri: '/api/send-contact-email', querystring: {}, headers, cookies: {} },
    });

    it('passes the Host the viewer asked for on as X-Viewer-Host, over anything the viewer sent under that name, and changes nothing else', () => {
      const headers = {
        host: { value: 'www.example.nl' },
        origin: { value: 'https://evil.example' },
        'x-viewer-host': { value: 'evil.example' },
      };
      const result = apiRequest(apiEvent(structuredClone(headers)));
      expect(result.headers).toEqual({ ...headers, [VIEWER_HOST_HEADER.toLowerCase()]: { value: 'www.example.nl' } });
      expect(result.uri).toBe('/api/send-contact-email');
      expect(result.method).toBe('POST');
    });

    it('passes on no viewer host at all when the request had no Host', () => {
      expect(apiRequest(apiEvent({ 'x-viewer-host': { value: 'evil.example' } })).headers).toEqual({});
    });
  });

  it('knows the pages of the build and not the hashed assets one by one', () => {
    for (const { FunctionARN } of distribution.DefaultCacheBehavior.FunctionAssociations) {
      const code: string = s.template.toJSON().Resources[FunctionARN['Fn::GetAtt'][0]].Properties.FunctionCode;
      const siteFiles = JSON.parse(/^var SITE_FILES = (.*);$/m.exec(code)![1]!);
      expect(Object.keys(siteFiles).sort()).toEqual(
        Object.keys(SITE_FILES)
          .filter((path) => !path.startsWith('/assets/'))
          .sort(),
      );
      expect(Object.values(siteFiles).every((value) => value === true)).toBe(true);
      expect(code).toMatch(/^var HASHED_ASSET_PREFIX = "\/assets\/";$/m);
    }
  });
});

describe('uploads', () => {
  const uploads = () =>
    Object.entries(s.template.findResources('Custom::CDKBucketDeployment')).map(([id, r]: [string, any]) => ({ id, ...r }));

  it('gives every built file the Cache-Control cacheControlFor gives it on the local edge', () => {
    // The uploads' patterns as the AWS CLI reads them: * stands for any characters, / included.
    const matches = (pattern: string, path: string) =>
      new RegExp(
        `^${pattern
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ).test(path.slice(1));
    for (const path of listSiteFiles(s.siteDir)) {
      const including = uploads().filter((u) => u.Properties.Include.some((pattern: string) => matches(pattern, path)));
      expect(including, path).toHaveLength(1);
      expect(including[0]!.Properties.Exclude).toEqual(['*']);
      expect(including[0]!.Properties.SystemMetadata['cache-control'], path).toBe(cacheControlFor(path));
    }
    expect([...new Set(uploads().map((u) => u.Properties.SystemMetadata['cache-control']))].sort()).toEqual(
      Object.values(CACHE_CONTROL).sort(),
    );
  });

  it('gives the fonts their Content-Type, which the upload would otherwise guess', () => {
    const fonts = listSiteFiles(s.siteDir).filter((path) => path.endsWith('.woff2'));
    expect(fonts.length).toBeGreaterThan(0);
    const fontUploads = uploads().filter((u) => u.Properties.SystemMetadata['content-type'] !== undefined);
    expect(fontUploads.map((u) => [u.Properties.Include, u.Properties.SystemMetadata['content-type']])).toEqual([
      [['assets/*.woff2'], 'font/woff2'],
    ]);
  });

  it('never prunes, uploads hashed assets first and HTML last, then invalidates the unhashed paths', () => {
    const byCache = (value: string) => uploads().filter((u) => u.Properties.SystemMetadata['cache-control'] === value);
    const hashed = byCache(CACHE_CONTROL.hashedAsset);
    const assets = hashed.find((u) => !u.Properties.SystemMetadata['content-type'])!;
    const fonts = hashed.find((u) => u.Properties.SystemMetadata['content-type'])!;
    const [images, other, html] = [byCache(CACHE_CONTROL.image)[0]!, byCache(CACHE_CONTROL.other)[0]!, byCache(CACHE_CONTROL.html)[0]!];
    for (const upload of [assets, fonts, images, other, html]) expect(upload.Properties.Prune).toBe(false);
    expect(fonts.DependsOn).toContain(assets.id);
    expect(images.DependsOn).toContain(fonts.id);
    expect(other.DependsOn).toContain(images.id);
    expect(html.DependsOn).toContain(other.id);
    for (const upload of [assets, fonts, images, other]) expect(upload.Properties.DistributionId).toBeUndefined();
    expect(html.Properties.DistributionId).toEqual({ Ref: only(s.template, 'AWS::CloudFront::Distribution').id });
    expect(html.Properties.DistributionPaths.sort()).toEqual(['/404.html', '/favicon.svg', '/index.html', '/privacy.html', '/robots.txt']);
    s.template.hasResourceProperties('AWS::Lambda::Function', { MemorySize: 512, Layers: Match.anyValue() });
  });

  it('run on one handler with one AWS CLI layer: no layer is attached to nothing', () => {
    const layers = Object.keys(s.template.findResources('AWS::Lambda::LayerVersion'));
    const attached = Object.values(s.template.findResources('AWS::Lambda::Function')).flatMap((fn: any) =>
      (fn.Properties.Layers ?? []).map((layer: any) => layer.Ref),
    );
    expect(layers).toHaveLength(1);
    expect(attached).toEqual(layers);
  });

  it('stops the synth with the command to run when the site is not built', () => {
    const context = { ...CDK_JSON_CONTEXT, ...TEST_ADDRESSES };
    const app = new App({ context });
    const apiOriginResponse = Version.fromVersionArn(
      new Stack(app, 'Edge'),
      'Version',
      'arn:aws:lambda:us-east-1:123456789012:function:f:1',
    );
    expect(
      () =>
        new SiteStack(app, 'NoBuild', {
          config: loadConfig(context),
          siteDir: '/nonexistent/frontend/dist',
          apiOriginResponse,
          edgeAlarms: ['CloudFront5xxRate'],
        }),
    ).toThrow('No built site in /nonexistent/frontend/dist (index.html and 404.html are needed): run `npm run build` first');
  });
});

describe('HSTS for subdomains', () => {
  it('is off by default and on with hstsIncludeSubdomains, on CloudFront as on the local edge', () => {
    const hstsOf = (t: Synthesized) =>
      only(t.template, 'AWS::CloudFront::ResponseHeadersPolicy').resource.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig
        .StrictTransportSecurity;
    expect(hstsOf(s).IncludeSubdomains).toBe(false);
    expect(securityHeaders(s.siteDir)['Strict-Transport-Security']).toBe('max-age=31536000');
    const optedIn = synth({ hstsIncludeSubdomains: true });
    expect(hstsOf(optedIn)).toMatchObject({ AccessControlMaxAgeSec: 31_536_000, IncludeSubdomains: true, Override: true });
    expect(securityHeaders(optedIn.siteDir, { hstsIncludeSubdomains: true })['Strict-Transport-Security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
  });
});
