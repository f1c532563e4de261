/**
 * How often the near-copy fingerprint (lambda's nearCopyBands) takes two ordinary contact
 * messages from different people for near-copies: every pair of a corpus of Dutch messages
 * (testing's dutch-contact-messages), under several keys, since the key decides which word
 * pairs stand for a text. A pair that shares a band would count as one text's two senders;
 * a third sharing that band would hold the message as repeatedText.
 */
import { randomBytes } from 'node:crypto';
import { dutchContactMessages } from '@site/testing/fixtures/dutch-contact-messages';
import { nearCopyBands } from '@site/lambda/spam-signals';

export interface NearCopies {
  messages: number;
  keys: number;
  /** Pairs compared, over every key. */
  pairs: number;
  /** Of those, pairs that share a band. */
  collisions: number;
}

export function measureNearCopies(messages = 300, keys = 5): NearCopies {
  const corpus = dutchContactMessages(messages);
  let pairs = 0;
  let collisions = 0;
  for (let k = 0; k < keys; k += 1) {
    const key = randomBytes(32);
    const bands = corpus.map((message) => nearCopyBands(key, message));
    for (let i = 0; i < bands.length; i += 1)
      for (let j = i + 1; j < bands.length; j += 1) {
        pairs += 1;
        if (bands[i]!.some((band, b) => band === bands[j]![b])) collisions += 1;
      }
  }
  return { messages, keys, pairs, collisions };
}
