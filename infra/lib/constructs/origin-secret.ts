/**
 * The secret that proves a request to the API came through CloudFront. Secrets Manager
 * generates it at the first deploy, so it is in neither the repository nor the template:
 * CloudFront's origin header and the contact function's environment both hold a
 * CloudFormation dynamic reference that is resolved at deploy time. The function reads it
 * from its environment, so its role gets no access to the secret.
 */
import { RemovalPolicy, SecretValue, Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_ENV } from '@site/core/function-env';

export interface OriginSecretProps {
  /** Start of the description; the secret's own name is generated, so a new stack never clashes with an old one. */
  prefix: string;
  /** The version CloudFront sends; without it, the secret's current value at deploy time. */
  version?: string;
  /** During a rotation: the version the function still accepts. */
  previousVersion?: string;
}

/** Letters and digits only: a header value needs no escaping anywhere it travels. */
export const ORIGIN_SECRET_LENGTH = 64;

export class OriginSecret extends Construct {
  readonly secret: Secret;
  /** The value CloudFront sends in the origin header, as a dynamic reference. */
  readonly headerValue: string;
  /** ORIGIN_VERIFY, and during a rotation ORIGIN_VERIFY_PREVIOUS, for the contact function. */
  readonly functionEnvironment: Record<string, string>;

  constructor(scope: Construct, id: string, props: OriginSecretProps) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: `${props.prefix}: the X-Origin-Verify value CloudFront sends to the API (docs/on-call.md: rotating the origin secret)`,
      generateSecretString: { passwordLength: ORIGIN_SECRET_LENGTH, excludePunctuation: true, includeSpace: false },
      // Nothing outside this stack holds the value: a new stack simply generates a new one.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotated by hand in steps (docs/on-call.md) because CloudFront and the function must change over together.',
    });

    // A named version changes the reference text, which is what makes CloudFormation resolve it again.
    const value = (versionId?: string) => SecretValue.secretsManager(this.secret.secretArn, versionId ? { versionId } : {}).unsafeUnwrap();
    this.headerValue = value(props.version);
    this.functionEnvironment = {
      [ORIGIN_VERIFY_ENV.current]: this.headerValue,
      ...(props.previousVersion && { [ORIGIN_VERIFY_ENV.previous]: value(props.previousVersion) }),
    };
  }
}
