/**
 * A stand-in for CloudFormation's DescribeStacks (the Query protocol the SDK speaks), for the
 * one call `npm run messages` makes there: no CloudFormation emulator runs on this machine.
 * It answers the documented response for the stacks it is given, and the documented
 * ValidationError for any other, and records what it was asked.
 */
import { createServer } from 'node:http';
import { closeServer, listen, type RunningServer } from '@site/emulators/servers';
import { loopbackUrl } from '@site/emulators/connections';

const NAMESPACE = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';

export interface FakeCloudFormation extends RunningServer {
  /** The StackName of every DescribeStacks request, in order. */
  asked: string[];
}

/** `stacks`: stack name → its outputs (key → value). */
export async function startFakeCloudFormation(stacks: Record<string, Record<string, string>>): Promise<FakeCloudFormation> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const stackName = form.get('StackName') ?? '';
      asked.push(stackName);
      const outputs = form.get('Action') === 'DescribeStacks' ? stacks[stackName] : undefined;
      res.setHeader('content-type', 'text/xml');
      if (!outputs) {
        res.statusCode = 400;
        res.end(
          `<ErrorResponse xmlns="${NAMESPACE}"><Error><Type>Sender</Type><Code>ValidationError</Code>` +
            `<Message>Stack with id ${stackName} does not exist</Message></Error><RequestId>1</RequestId></ErrorResponse>`,
        );
        return;
      }
      const members = Object.entries(outputs)
        .map(([key, value]) => `<member><OutputKey>${key}</OutputKey><OutputValue>${value}</OutputValue></member>`)
        .join('');
      res.end(
        `<DescribeStacksResponse xmlns="${NAMESPACE}"><DescribeStacksResult><Stacks><member>` +
          `<StackName>${stackName}</StackName><StackId>arn:aws:cloudformation:eu-west-1:123456789012:stack/${stackName}/1</StackId>` +
          `<CreationTime>2025-01-01T00:00:00Z</CreationTime><StackStatus>CREATE_COMPLETE</StackStatus><Outputs>${members}</Outputs>` +
          '</member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></DescribeStacksResponse>',
      );
    });
  });
  const port = await listen(server, 0);
  return { url: loopbackUrl(port), port, asked, close: () => closeServer(server) };
}
