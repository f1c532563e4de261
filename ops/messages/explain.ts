/**
 * One sentence for each failure an operator can fix, instead of an SDK stack trace. Built
 * from error names and codes only: AWS error messages can quote what was sent.
 */
import { describeError } from '@site/lambda/log';

export interface FailureContext {
  /** 'DynamoDB' or 'CloudFormation'. */
  service: string;
  /** "at <endpoint URL>" or "in <region>". */
  where: string;
  tableName?: string;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'TimeoutError']);
const REFUSED_CREDENTIALS = new Set([
  'UnrecognizedClientException',
  'AccessDeniedException',
  'AccessDenied',
  'InvalidClientTokenId',
  'ExpiredToken',
  'ExpiredTokenException',
  'InvalidSignatureException',
  'SignatureDoesNotMatch',
]);

export function explain(error: unknown, context: FailureContext): string {
  const { name = '', code = '', message = '' } = (error ?? {}) as { name?: string; code?: string; message?: string };
  if (name === 'ResourceNotFoundException' && context.tableName) {
    return `Table ${context.tableName} does not exist ${context.where}. Set TABLE_NAME or --stage, or start the local stack with npm start.`;
  }
  // A table made before the index existed: the stack adds it on deploy; dynalite cannot add one.
  if (name === 'ValidationException' && message.includes('does not have the specified index') && context.tableName) {
    return `Table ${context.tableName} ${context.where} was made before its byEmail index. In AWS, deploy the stack; locally, stop npm start, delete .data/ and start again.`;
  }
  if (UNREACHABLE.has(code) || UNREACHABLE.has(name)) {
    return `${context.service} is not reachable ${context.where}. Start the local stack with npm start, or set AWS_REGION (and AWS_PROFILE) for AWS.`;
  }
  if (name === 'CredentialsProviderError') {
    return 'No AWS credentials found. Set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.';
  }
  if (REFUSED_CREDENTIALS.has(name)) {
    return `${context.service} ${context.where} refused the credentials (${name}). Check AWS_PROFILE or the AWS_ACCESS_KEY_ID in use, and its permissions.`;
  }
  // The SDK's own words when neither AWS_REGION nor the profile gives a region.
  if (message === 'Region is missing') return 'No AWS region. Set AWS_REGION to the region the stack is in.';
  return `${context.service} ${context.where} failed: ${describeError(error)}.`;
}
