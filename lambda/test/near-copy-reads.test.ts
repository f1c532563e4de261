/**
 * A text's near-copy bands are read in one BatchGetItem, under the contact function's role.
 * DynamoDB may leave some of its keys unprocessed when the table is throttled; those are read
 * again, and a band never read is never taken for an empty one (which would let a wave of
 * near-copies pass as new text while the table is busy).
 */
import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { countNearCopies, readNearCopies } from '../src/spam/spam-store';
import { fingerprintKey, nearCopyBands } from '../src/spam/spam-signals';
import type { MessageTable } from '../src/store/store';
import { useLocalAws } from './support/contact-stack';

const KEY = fingerprintKey('a-test-origin-secret-of-enough-length-0123456789');
const NOW = new Date('2026-12-07T10:00:00Z');

describe('reading a text’s near-copy bands', () => {
  const stack = useLocalAws();
  const table = (): MessageTable => ({ name: stack.aws.config.tableName, client: stack.aws.clients.documents });

  /**
   * The function's own client, except that DynamoDB answers the first `throttled` reads of the
   * bands as a throttled table does: the first key read, the others left unprocessed.
   */
  function throttledTable(throttled: number): MessageTable & { reads: number } {
    const real = table();
    const result = {
      name: real.name,
      reads: 0,
      client: {
        send: async (command: unknown) => {
          const answer = (await real.client.send(command as never)) as unknown;
          if (!(command instanceof BatchGetCommand)) return answer;
          result.reads += 1;
          if (result.reads > throttled) return answer;
          const [first, ...rest] = command.input.RequestItems![real.name]!.Keys!;
          const { Responses } = answer as BatchGetCommandOutput;
          return {
            Responses: { [real.name]: (Responses?.[real.name] ?? []).filter((item) => item.id === first!.id) },
            UnprocessedKeys: rest.length > 0 ? { [real.name]: { ...command.input.RequestItems![real.name], Keys: rest } } : {},
          } satisfies Partial<BatchGetCommandOutput>;
        },
      } as unknown as MessageTable['client'],
    };
    return result;
  }

  it('reads the keys a throttled table left unprocessed again, and counts every band', async () => {
    const bands = nearCopyBands(KEY, 'Wij willen graag een offerte voor de jaarrekening van onze stichting.');
    for (const sender of ['sender-a', 'sender-b']) await countNearCopies(table(), await readNearCopies(table(), bands, NOW), sender);
    const throttled = throttledTable(2);
    const read = await readNearCopies(throttled, bands, NOW);
    expect(throttled.reads).toBe(3);
    expect(read.senders.map((senders) => [...senders].sort())).toEqual(bands.map(() => ['sender-a', 'sender-b']));
  });

  it('fails, rather than take a band it could not read for an empty one', async () => {
    const bands = nearCopyBands(KEY, 'Kunt u ons helpen met de salarisadministratie vanaf januari?');
    const throttled = throttledTable(Infinity);
    await expect(readNearCopies(throttled, bands, NOW)).rejects.toThrow(/unread after 3 reads/);
    expect(throttled.reads).toBe(3);
  });
});
