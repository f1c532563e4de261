/**
 * Sample values that must not go live, in one place for the site's content, the deploy
 * configuration and the stack:
 *
 * - placeholder(key, sample): a fact in the site's content that only the firm can supply,
 *   shown as a sample until it does. Each content module lists its own (placeholders()).
 * - placeholderAddressReason(address): e-mail addresses that only look configured, which
 *   the deploy configuration refuses at every stage.
 * - refusePlaceholdersInProd(stage, …): the check that stops a `prod` synth while the
 *   content still shows any sample fact.
 */

/** One content module's placeholders: each key with the sample value the site still shows. */
export type Placeholders = ReadonlyMap<string, string>;

/** The content's placeholders by file, the path in the repository the firm edits. */
export type PlaceholdersByFile = ReadonlyMap<string, Placeholders>;

export interface PlaceholderList {
  /**
   * Marks a fact only the firm can supply and returns the sample shown until it does:
   * `placeholder('firm.phone', '055 000 00 00')`. The firm fills it in by writing the
   * plain value instead of the call.
   */
  placeholder: <const T extends string>(key: string, sample: T) => T;
  /** The facts marked so far, which the content module exports as its PLACEHOLDERS. */
  left: Placeholders;
}

/** A content module's own placeholder(…) and the list of what it marked. */
export function placeholders(): PlaceholderList {
  const left = new Map<string, string>();
  const placeholder = <const T extends string>(key: string, sample: T): T => {
    left.set(key, sample);
    return sample;
  };
  return { placeholder, left };
}

/** Top-level domains reserved by RFC 2606 and RFC 6761: never a real mailbox. */
const RESERVED_TLDS = new Set(['test', 'example', 'invalid', 'localhost', 'local']);

/** Labels of documentation domains (example.com, example.nl, mail.example.org, example.co.uk). */
const EXAMPLE_LABEL = 'example';

/** Domain labels that say "put yours here". */
const FILL_IN_LABEL =
  /^(?:your|my)-?(?:domain|company|firm|site|website|business|email|mail)$|^(?:domain|placeholder|changeme|change-me|todo|tbd|xxx+)$/;

/** Local parts that say "put yours here". */
const FILL_IN_LOCAL = /^(?:your-?(?:name|email|address)|changeme|change-me|placeholder|todo|tbd|xxx+|someone|somebody|foo)$/;

/**
 * Why `address` only looks configured, or undefined when it looks like a real one: sample
 * domains from documentation, reserved names that can never receive mail, and the usual
 * fill-in-here words. `example.nl` and its kind are real domains someone else owns: once
 * SES leaves the sandbox, visitors' messages would be mailed there.
 */
export function placeholderAddressReason(address: string): string | undefined {
  const [local = '', domain = ''] = address.toLowerCase().split('@');
  const labels = domain.split('.');
  const tld = labels.at(-1) ?? '';
  if (RESERVED_TLDS.has(tld)) return `.${tld} is a reserved top-level domain that never receives mail`;
  if (labels.includes(EXAMPLE_LABEL)) return `${domain} is a documentation example domain, owned by someone else`;
  const fillIn = labels.find((label) => FILL_IN_LABEL.test(label));
  if (fillIn) return `${domain} is a fill-in-here name, not the firm's domain`;
  if (FILL_IN_LOCAL.test(local)) return `${local}@ is a fill-in-here name, not a real mailbox`;
  return undefined;
}

export class PlaceholdersLeftError extends Error {
  constructor(readonly left: PlaceholdersByFile) {
    const files = [...left].filter(([, placeholders]) => placeholders.size > 0).map(([file]) => file);
    super(
      `Stage prod would publish sample content. Replace these placeholder(…) values in ${files.join(' and ')} with the firm's ` +
        `real facts (write the plain value instead of the placeholder call), then npm run build and run the command again:\n` +
        [...left].flatMap(([file, placeholders]) => [...placeholders.keys()].map((key) => `  - ${key} (${file})`)).join('\n'),
    );
    this.name = 'PlaceholdersLeftError';
  }
}

/**
 * A `prod` deploy publishes the site to the firm's visitors: it must not show a sample fact.
 * Throws while any placeholder is left; other stages may show them, and say nothing.
 */
export function refusePlaceholdersInProd(stage: string, left: PlaceholdersByFile): void {
  if (stage === 'prod' && [...left.values()].some((placeholders) => placeholders.size > 0)) throw new PlaceholdersLeftError(left);
}
