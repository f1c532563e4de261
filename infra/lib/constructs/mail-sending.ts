/**
 * Permission to send the notifications. In the SES sandbox SendEmail is authorised against
 * the sender's identity and every recipient's identity, so the grant covers the identities
 * of this account and region; the ses:FromAddress condition keeps the functions from ever
 * sending as anyone but senderAddress. An e-mail sent through a configuration set is
 * authorised against the set as well: the stage's own set, no other.
 */
import { Stack, Token, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

export function grantSendAs(senderAddress: string, configurationSetName: string, ...functions: IFunction[]): void {
  const stack = Stack.of(functions[0]!);
  const identities = stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' });
  const statement = new PolicyStatement({
    actions: ['ses:SendEmail'],
    resources: [identities, stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: configurationSetName })],
    conditions: { StringEquals: { 'ses:FromAddress': senderAddress } },
  });
  // As cdk-nag prints the resource: literals where the synth knows them, else the pseudo parameters.
  const known = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
  const finding = `AwsSolutions-IAM5[Resource::arn:${known(stack.partition, 'Partition')}:ses:${known(stack.region, 'Region')}:${known(stack.account, 'AccountId')}:identity/*]`;
  for (const fn of functions) {
    fn.addToRolePolicy(statement);
    Validations.of(fn.role!).acknowledge({
      id: finding,
      reason: 'In the SES sandbox the recipient identity is authorised too; ses:FromAddress limits sending to senderAddress.',
    });
  }
}
