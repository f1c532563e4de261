/**
 * The load generator's messages: valid and distinct, each with its own Idempotency-Key, its
 * own visitor address and a marker that finds its stored item and its e-mail by content.
 * Reproducible from the run's seed.
 */
import { randomUUID } from 'node:crypto';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { HONEYPOT_FIELD, type ContactRequestBody } from '@site/core/contract';
import { type FieldKind } from '@site/core/field-spec';
import { FIELDS, kindOf } from './contact-fields';
import { newVisitor } from './visitors';
import { distinctText } from '@site/testing/api-events';

export interface Submission {
  phase: string;
  index: number;
  /** The loopback address it is sent from: a visitor of its own (see visitors.ts). */
  from?: string;
  key: string;
  /** Unique text inside the message, to find the stored item and the e-mail by content. */
  marker: string;
  body: ContactRequestBody;
}

/** A small deterministic PRNG, so a run's content is reproducible from its seed. */
export function prng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

const FIRST = [
  'Anna',
  'Bram',
  'Cor',
  'Daan',
  'Eva',
  'Fenna',
  'Gijs',
  'Hanna',
  'Isa',
  'Joost',
  'Kees',
  'Lotte',
  'Maarten',
  'Noor',
  'Olaf',
  'Pien',
];
const LAST = ['de Vries', 'Jansen', 'Bakker', 'Visser', 'Smit', 'Meijer', 'de Boer', 'Mulder', 'de Groot', 'Bos', 'Vos', 'Peters'];
const COMPANIES = ['Bakkerij Bos', 'Visser Logistiek', 'Meijer & Zn.', 'De Groot Bouw', 'Smit Advies', 'Mulder Techniek'];

/**
 * Valid messages whose content differs per submission: every field of the table filled by
 * its kind (a name or firm, an address, a number, a few sentences with the marker), the
 * optional ones half the time. Identical bodies would hide a bug that mixes two messages up.
 */
export function makeSubmissions(phase: string, runTag: string, count: number, seed: number): Submission[] {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const valueOf: Record<FieldKind, (index: number, marker: string) => string> = {
    text: (index) => `${random() < 0.5 ? `${pick(FIRST)} ${pick(LAST)}` : pick(COMPANIES)} ${index}`,
    email: (index) => `bezoeker.${phase.toLowerCase()}.${index}.${runTag.toLowerCase()}@example.nl`,
    phone: () => `06-${String(10_000_000 + Math.floor(random() * 89_999_999))}`,
    // Some messages carry line breaks, as real ones do; the marker stays on a line of its own.
    // Each text its own (distinctText): a few sentences many messages share would be near-copies,
    // held as a spam wave, where this load is the firm's ordinary mail.
    multiline: (_, marker) => {
      const sentences = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, part) => distinctText(`${marker}-${part}`));
      return `${sentences.join(random() < 0.3 ? '\n' : ' ')}\nKenmerk klant: ${marker}`;
    },
  };
  return Array.from({ length: count }, (_, index) => {
    const marker = `RB${runTag}${phase}N${index}`;
    const fields = FIELDS.filter((field) => CONTACT_FIELDS[field].required || random() < 0.5).map((field) => {
      const value = valueOf[kindOf(field)](index, marker);
      return [field, kindOf(field) === 'multiline' ? value : value.slice(0, CONTACT_FIELDS[field].limit)];
    });
    const body = { ...Object.fromEntries(fields), [HONEYPOT_FIELD]: '' } as ContactRequestBody;
    return { phase, index, from: newVisitor(), key: randomUUID(), marker, body };
  });
}
