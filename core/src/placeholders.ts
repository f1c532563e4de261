/**
 * Addresses that only look configured: sample domains from documentation, reserved names
 * that can never receive mail, and the usual fill-in-here words. `example.nl` and its kind
 * are real domains someone else owns: once SES leaves the sandbox, visitors' messages
 * would be mailed there.
 */

/** Top-level domains reserved by RFC 2606 and RFC 6761: never a real mailbox. */
const RESERVED_TLDS = new Set(['test', 'example', 'invalid', 'localhost', 'local']);

/** Labels of documentation domains (example.com, example.nl, mail.example.org, example.co.uk). */
const EXAMPLE_LABEL = 'example';

/** Domain labels that say "put yours here". */
const FILL_IN_LABEL =
  /^(?:your|my)-?(?:domain|company|firm|site|website|business|email|mail)$|^(?:domain|placeholder|changeme|change-me|todo|tbd|xxx+)$/;

/** Local parts that say "put yours here". */
const FILL_IN_LOCAL = /^(?:your-?(?:name|email|address)|changeme|change-me|placeholder|todo|tbd|xxx+|someone|somebody|foo)$/;

/** Why `address` is a placeholder, or undefined when it looks like a real one. */
export function placeholderReason(address: string): string | undefined {
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
