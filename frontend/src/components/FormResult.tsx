import { CONTACT_FIELDS, fieldNames, type FormResult as Result } from '@site/core/contract';
import { directContact, emailHref, firm, formResults, phoneHref } from '../content/site';
import { Icon } from './Icon';
import { StatusPage } from './StatusPage';

/** What each field asks for, from the contact-field table, so the page can never disagree with the server. */
function FieldRules() {
  const text = formResults.check;
  return (
    <ul className="form-result-rules">
      {fieldNames(CONTACT_FIELDS).map((name) => {
        const field = CONTACT_FIELDS[name];
        const rules = [field.required && text.required, field.kind === 'email' && text.emailExample, text.limit(field.limit)];
        return (
          <li key={name}>
            <strong>{field.label}</strong>: {rules.filter(Boolean).join(', ')}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Where the form without scripts ends up (the function answers its post with 303 to one
 * of these). Each says what happened and what to do next; the Back button keeps what was typed.
 */
export function FormResult({ result }: { result: Result }) {
  const text = formResults[result];
  const code = result === 'sent' ? <Icon name="check" className="status-icon" /> : '!';
  return (
    <StatusPage code={code} headline={text.headline} headlineLang={null}>
      <p className="status-text">{text.text}</p>
      {result === 'check' && <FieldRules />}
      {'back' in text && <p className="status-text">{text.back}</p>}
      {result === 'failed' && (
        <p className="status-text">
          {directContact.call} <a href={phoneHref}>{firm.phone}</a> {directContact.mail} <a href={emailHref}>{firm.email}</a>.
        </p>
      )}
      <a className="btn btn-accent" href={text.link.href}>
        {text.link.label}
        <Icon name="arrowRight" />
      </a>
    </StatusPage>
  );
}
