/**
 * SECURITY_HEADERS (the same headers the local edge sends) as CloudFront response headers
 * policy settings. CloudFront takes the security headers it knows only as typed settings
 * and refuses them as custom headers at deploy, so each is translated; every other header
 * is custom. A value CloudFront cannot express, or a header it types that has no
 * translation here yet, stops the synth rather than ship a different header or fail the deploy.
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

type TypedSetting = keyof ResponseSecurityHeadersBehavior;

/**
 * The header each typed setting of a response headers policy sets (SecurityHeadersConfig
 * of AWS::CloudFront::ResponseHeadersPolicy). A record over the CDK's own settings, so a
 * setting the CDK adds fails the typecheck until it is named here.
 */
export const CLOUDFRONT_TYPED_HEADERS = {
  contentSecurityPolicy: 'Content-Security-Policy',
  contentTypeOptions: 'X-Content-Type-Options',
  frameOptions: 'X-Frame-Options',
  referrerPolicy: 'Referrer-Policy',
  strictTransportSecurity: 'Strict-Transport-Security',
  xssProtection: 'X-XSS-Protection',
} as const satisfies Record<TypedSetting, string>;

const HSTS = /^max-age=(\d+)(; includeSubDomains)?(; preload)?$/;

/**
 * How a header's value becomes its typed setting, or undefined when the setting cannot say
 * it. `override` so an origin (the API) cannot weaken them.
 */
const TRANSLATIONS: { [S in TypedSetting]?: (value: string) => ResponseSecurityHeadersBehavior[S] | undefined } = {
  contentSecurityPolicy: (value) => ({ contentSecurityPolicy: value, override: true }),
  strictTransportSecurity: (value) => {
    const match = HSTS.exec(value);
    if (!match) return undefined;
    return {
      accessControlMaxAge: Duration.seconds(Number(match[1])),
      includeSubdomains: match[2] !== undefined,
      preload: match[3] !== undefined,
      override: true,
    };
  },
  contentTypeOptions: (value) => (value === 'nosniff' ? { override: true } : undefined),
  frameOptions: (value) => {
    const frameOption = Object.values(HeadersFrameOption).find((option) => (option as string) === value);
    return frameOption && { frameOption, override: true };
  },
  referrerPolicy: (value) => {
    const referrerPolicy = Object.values(HeadersReferrerPolicy).find((policy) => (policy as string) === value);
    return referrerPolicy && { referrerPolicy, override: true };
  },
};

/** The typed setting for a header name, in any case, or undefined for a custom header. */
function typedSettingOf(name: string): TypedSetting | undefined {
  return (Object.keys(CLOUDFRONT_TYPED_HEADERS) as TypedSetting[]).find(
    (setting) => CLOUDFRONT_TYPED_HEADERS[setting].toLowerCase() === name.toLowerCase(),
  );
}

function translate<S extends TypedSetting>(setting: S, name: string, value: string): ResponseSecurityHeadersBehavior[S] {
  const translation = TRANSLATIONS[setting];
  if (!translation) {
    throw new Error(
      `SECURITY_HEADERS ${name}: CloudFront sets it only through the typed setting ${setting} of a response headers policy and ` +
        'refuses it as a custom header at deploy; translate it in infra/lib/response-headers.ts (TRANSLATIONS) or leave the header out.',
    );
  }
  const translated = translation(value);
  if (!translated) throw new Error(`SECURITY_HEADERS ${name}: "${value}" has no CloudFront response headers policy equivalent.`);
  return translated;
}

export function responseHeadersSettings(headers: Readonly<Record<string, string>>): ResponseHeadersSettings {
  const security: { -readonly [S in TypedSetting]?: ResponseSecurityHeadersBehavior[S] } = {};
  const custom: ResponseCustomHeadersBehavior['customHeaders'] = [];
  for (const [name, value] of Object.entries(headers)) {
    const setting = typedSettingOf(name);
    if (setting) Object.assign(security, { [setting]: translate(setting, name, value) });
    else custom.push({ header: name, value, override: true });
  }
  return { securityHeadersBehavior: security, customHeadersBehavior: { customHeaders: custom } };
}
