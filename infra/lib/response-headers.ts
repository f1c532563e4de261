/**
 * SECURITY_HEADERS (the same headers the local edge sends) as CloudFront response headers
 * policy settings. CloudFront takes the security headers it knows as typed settings and
 * refuses them as custom headers, so each is translated; every other header is custom.
 * A value CloudFront cannot express stops the synth rather than ship a different header.
 */
import { Duration } from 'aws-cdk-lib';
import {
  HeadersFrameOption,
  HeadersReferrerPolicy,
  type ResponseCustomHeadersBehavior,
  type ResponseSecurityHeadersBehavior,
} from 'aws-cdk-lib/aws-cloudfront';

export interface ResponseHeadersSettings {
  securityHeadersBehavior: ResponseSecurityHeadersBehavior;
  customHeadersBehavior: ResponseCustomHeadersBehavior;
}

const HSTS = /^max-age=(\d+)(; includeSubDomains)?(; preload)?$/;

export function responseHeadersSettings(headers: Readonly<Record<string, string>>): ResponseHeadersSettings {
  const security: { -readonly [K in keyof ResponseSecurityHeadersBehavior]: ResponseSecurityHeadersBehavior[K] } = {};
  const custom: ResponseCustomHeadersBehavior['customHeaders'] = [];
  const cannot = (name: string, value: string) =>
    new Error(`SECURITY_HEADERS ${name}: "${value}" has no CloudFront response headers policy equivalent.`);

  // `override` so an origin (the API) cannot weaken them.
  for (const [name, value] of Object.entries(headers)) {
    switch (name.toLowerCase()) {
      case 'content-security-policy':
        security.contentSecurityPolicy = { contentSecurityPolicy: value, override: true };
        break;
      case 'strict-transport-security': {
        const match = HSTS.exec(value);
        if (!match) throw cannot(name, value);
        security.strictTransportSecurity = {
          accessControlMaxAge: Duration.seconds(Number(match[1])),
          includeSubdomains: match[2] !== undefined,
          preload: match[3] !== undefined,
          override: true,
        };
        break;
      }
      case 'x-content-type-options':
        if (value !== 'nosniff') throw cannot(name, value);
        security.contentTypeOptions = { override: true };
        break;
      case 'x-frame-options': {
        const frameOption = Object.values(HeadersFrameOption).find((option) => (option as string) === value);
        if (!frameOption) throw cannot(name, value);
        security.frameOptions = { frameOption, override: true };
        break;
      }
      case 'referrer-policy': {
        const referrerPolicy = Object.values(HeadersReferrerPolicy).find((policy) => (policy as string) === value);
        if (!referrerPolicy) throw cannot(name, value);
        security.referrerPolicy = { referrerPolicy, override: true };
        break;
      }
      default:
        custom.push({ header: name, value, override: true });
    }
  }
  return { securityHeadersBehavior: security, customHeadersBehavior: { customHeaders: custom } };
}
