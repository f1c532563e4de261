import { useEffect, useRef } from 'react';
import { contactForm, firm, phoneHref, sentConfirmation as text } from '../content/site';
import { focusFrame, focusInView } from '../focus-in-view';
import { Icon } from '../components/Icon';

interface ContactSentProps {
  firstName: string | undefined;
  onWriteAnother: () => void;
}

/**
 * In the form's place once the message is sent: it stays when the spec's toast has gone. Focus
 * moves to its heading, so a screen reader says at once what happened and to whom.
 */
export function ContactSent({ firstName, onWriteAnother }: ContactSentProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (heading.current) focusInView(heading.current);
  }, []);
  return (
    <div className="card contact-sent" {...focusFrame}>
      <span className="contact-sent-tick">
        <Icon name="check" />
      </span>
      <h3 ref={heading} className="contact-sent-title" tabIndex={-1}>
        {text.thanks(firstName)}
      </h3>
      <p className="contact-sent-text">{contactForm.messages.success}</p>
      <p className="contact-sent-call">
        <Icon name="phone" />
        <span>
          {text.call} <a href={phoneHref}>{firm.phone}</a>
        </span>
      </p>
      <button type="button" className="btn contact-sent-again" onClick={onWriteAnother}>
        {text.another}
      </button>
    </div>
  );
}
