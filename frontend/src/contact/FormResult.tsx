import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { fieldNames } from '@site/core/contract';
import { type FieldList } from '@site/core/field-spec';
import { directContact, emailHref, firm, phoneHref, sentConfirmation } from '../content/site';
import { formResults } from '../content/form-results';
import type { FormResultPage } from '../routes';
import { Icon } from '../components/Icon';
import { StatusPage } from '../components/StatusPage';
import { joinLastWords } from '../typography';

/** What each of `names` asks for, from the contact-field list, so the page can never disagree with the server. */
function FieldRules({ fields, names }: { fields: FieldList; names: readonly string[] }) {
  const text = formResults.check;
  return (
    <ul className="form-result-rules">
      {names.map((name) => {
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

function DirectContact() {
  return (
    <p className="status-text">
      {directContact.call} <a href={phoneHref}>{firm.phone}</a> {directContact.mail} <a href={emailHref}>{firm.email}</a>.
    </p>
  );
}

/**
 * Where the form without scripts ends up (the function answers its post with 303 to one
 * of these). Each says what happened and what to do next; the Back button keeps what was typed.
 * `fields` is the contract's table unless a test passes another.
 */
export function FormResult({ result, refused, fields = CONTACT_FIELDS }: FormResultPage & { fields?: FieldList }) {
  const text = formResults[result];
  // One drawn icon for every result: a tick when the message is on its way, else a sign to look.
  const code = <Icon name={result === 'sent' ? 'success' : 'error'} className="status-icon" />;
  return (
    <StatusPage code={code} headline={text.headline} headlineLang={null}>
      {result === 'check' && refused ? (
        <p className="status-text">{joinLastWords(formResults.check.refused(refused.length))}</p>
      ) : (
        text.text && <p className="status-text">{joinLastWords(text.text)}</p>
      )}
      {result === 'check' && <FieldRules fields={fields} names={refused ?? fieldNames(fields)} />}
      {result === 'limited' && (
        // The build's visitor window; the synth refuses a deploy whose window differs (infra/lib/stated-facts.ts).
        <p className="status-text" data-visitor-window-minutes={__VISITOR_WINDOW_MINUTES__}>
          {joinLastWords(formResults.limited.again(__VISITOR_WINDOW_MINUTES__))}
        </p>
      )}
      {result === 'sent' && (
        // As the confirmation that takes the form's place when scripts run says it.
        <>
          <p className="status-text">
            {sentConfirmation.call} <a href={phoneHref}>{firm.phone}</a>
          </p>
        </>
      )}
      {'back' in text && <p className="status-text">{joinLastWords(text.back)}</p>}
      {(result === 'failed' || result === 'limited' || result === 'busy') && <DirectContact />}
      <a className="btn btn-primary" href={text.link.href}>
        {text.link.label}
        <Icon name="arrowRight" />
      </a>
    </StatusPage>
  );
}
