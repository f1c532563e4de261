/**
 * The optional AWS WAF in front of the distribution (config.wafRateLimit): one rate-based
 * rule that blocks an IP address sending more than the limit to /api/* within 5 minutes,
 * before the request costs an API call or a function run. A web ACL for CloudFront must be
 * made in us-east-1, so it lives in a small stack of its own there, like the certificate.
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { ERROR_TEXT } from '@site/core/content/api-answers';

export interface WafStackProps extends StackProps {
  /** Start of every resource name. */
  prefix: string;
  /** Requests per 5 minutes per IP address to /api/*. */
  rateLimit: number;
}

/** WAF counts over this window; 5 minutes smooths a visitor's short bursts. */
export const WAF_EVALUATION_WINDOW_SECONDS = 300;

/** The function's own answer past its visitor limit, so the page and a script see one kind of 429. */
export const WAF_TOO_MANY_BODY = JSON.stringify({ error: ERROR_TEXT.tooManyMessages });

/** The web ACL's name, which its metrics carry as the WebACL dimension. */
export const webAclName = (prefix: string) => `${prefix}-site`;

export class WafStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: WafStackProps) {
    super(scope, id, props);
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: webAclName(props.prefix),
      description: 'Rate limit per IP address on /api/ paths - wafRateLimit',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${props.prefix}-site`),
      customResponseBodies: { 'too-many': { contentType: 'APPLICATION_JSON', content: WAF_TOO_MANY_BODY } },
      rules: [
        {
          name: 'api-rate-per-ip',
          priority: 0,
          // 429 like the function's own limit, so the form handles both alike.
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'too-many' } } },
          statement: {
            rateBasedStatement: {
              limit: props.rateLimit,
              aggregateKeyType: 'IP',
              evaluationWindowSec: WAF_EVALUATION_WINDOW_SECONDS,
              // Page loads are static and cached; only the API is worth protecting.
              scopeDownStatement: {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: 'STARTS_WITH',
                  searchString: '/api/',
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
            },
          },
          visibilityConfig: visibility(`${props.prefix}-api-rate-per-ip`),
        },
      ],
    });
  }
}
