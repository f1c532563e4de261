import { callBar as text, emailHref, firm, phoneHref } from '../content/site';
import { Icon } from './Icon';

/**
 * Call or mail with the thumb, on a phone, while scrolling from the hero to the contact
 * section. Where it shows is CSS alone (CallBar.css), so it works before and without scripts.
 * The number and the address are in the links' names, for screen readers.
 */
export function CallBar() {
  return (
    <div className="call-bar" role="group" aria-label={text.label}>
      <a className="btn call-bar-link" href={phoneHref}>
        <Icon name="phone" />
        {text.call}
        <span className="visually-hidden"> {firm.phone}</span>
      </a>
      <a className="btn call-bar-link" href={emailHref}>
        <Icon name="mail" />
        {text.mail}
        <span className="visually-hidden"> {firm.email}</span>
      </a>
    </div>
  );
}
