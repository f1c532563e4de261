import { firm } from '../content/site';

/**
 * The mark (rising bars with the 'streepje' ahead of them) and the name. The name is text,
 * so it stays sharp, searchable and takes the header's colour.
 */
export function Logo() {
  return (
    <span className="logo">
      <svg className="logo-mark" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
        <rect width="40" height="40" rx="10" fill="#f2a93b" />
        <rect x="8" y="9" width="11" height="3.5" rx="1.75" fill="#0b1f3f" />
        <rect x="8" y="21" width="6" height="11" rx="1.5" fill="#0b1f3f" />
        <rect x="17" y="16" width="6" height="16" rx="1.5" fill="#0b1f3f" />
        <rect x="26" y="9" width="6" height="23" rx="1.5" fill="#0b1f3f" />
      </svg>
      <span className="logo-name">{firm.name}</span>
    </span>
  );
}
