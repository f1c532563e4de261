import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { fieldNames, type FieldTable, type FormResult as Result } from '@site/core/contract';
import { firm, formResults, phoneHref } from '../content/site';
import { Icon } from './Icon';
import { StatusPage } from './StatusPage';

/** What each field asks for, from the contact-field table, so the page can never disagree with the server. */
function FieldRules({ fields }: { fields: FieldTable }) {
  const text = formResults.check;
  return (
    <ul className="form-result-rules">
      {fieldNames(fields).map((name) => {
        const field = fields[name]!;
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
export function FormResult({ result, fields = CONTACT_FIELDS }: { result: Result; fields?: FieldTable }) {
  const text = formResults[result];
  const code = result === 'sent' ? <Icon name="check" className="status-icon" /> : '!';
  return (
    <StatusPage code={code} headline={text.headline} headlineLang={null}>
      <p className="status-text">{text.text}</p>
      {result === 'check' && <FieldRules fields={fields} />}
      {'back' in text && <p className="status-text">{text.back}</p>}
      {result === 'failed' && (
        <p className="status-text">
          {formResults.failed.direct.call} <a href={phoneHref}>{firm.phone}</a> {formResults.failed.direct.mail}{' '}
          <a href={`mailto:${firm.email}`}>{firm.email}</a>.
        </p>
      )}
      <a className="btn btn-accent" href={text.link.href}>
        {text.link.label}
        <Icon name="arrowRight" />
      </a>
    </StatusPage>
  );
}
