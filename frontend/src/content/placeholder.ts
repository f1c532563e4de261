/**
 * A fact only the firm can supply, written as `placeholder('firm.phone', '+31 55 000 00 00')`
 * until it does. Replacing the call with the plain value is how the firm fills one in; a
 * `prod` deploy refuses while any placeholder remains, so a sample value never goes live.
 */
const registered = new Map<string, string>();

export function placeholder<const T extends string>(key: string, value: T): T {
  registered.set(key, value);
  return value;
}

/** The placeholders registered so far, by key, with their sample values. */
export function registeredPlaceholders(): ReadonlyMap<string, string> {
  return registered;
}
