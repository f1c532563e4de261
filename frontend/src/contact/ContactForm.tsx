import { useState, type ChangeEvent } from 'react';
import { API_PATH, HONEYPOT_FIELD, INPUT_TYPE, fieldNames, type ContactFields } from '@site/core/contract';
import { type ContactFieldSpec, type FieldList } from '@site/core/field-spec';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { lengthState, type LengthState } from './contact-checks';
import { focusFrame, keepClear } from '../focus-in-view';
import { contactForm as text } from '../content/site';
import { useContactForm } from './useContactForm';
import { useSettledValue } from '../hooks/useSettledValue';
import { ContactSent } from './ContactSent';
import { Icon } from '../components/Icon';
import { joinLastWords } from '../typography';

/** How long typing must pause before a screen reader hears how many characters are left. */
export const COUNT_ANNOUNCE_DELAY_MS = 1000;

function countText({ count, limit, over }: LengthState): string {
  return over ? text.count.over(count - limit, limit) : text.count.left(limit - count, limit);
}

interface FieldProps {
  name: string;
  field: ContactFieldSpec;
  value: string;
  problem: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
}

/**
 * No maxLength: the browser would cut pasted text off without a word. Near the limit the
 * field shows what is left; past it, how much is too much, and sending is refused with a
 * message at the field.
 */
function Field({ name, field, value, problem, onChange }: FieldProps) {
  const id = `contact-${name}`;
  const length = lengthState(value, field.limit);
  const problemId = `${id}-problem`;
  const countId = `${id}-count`;
  const describedBy = [problem !== undefined && problemId, length.near && countId].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name,
    value,
    onChange,
    required: field.required,
    'aria-invalid': problem !== undefined ? true : undefined,
    'aria-describedby': describedBy,
    className: 'field-input',
  };
  return (
    <div className={field.kind === 'multiline' ? 'field field--wide' : 'field'} {...focusFrame}>
      <label className="field-label" htmlFor={id}>
        {field.label}
        {field.required && (
          <span className="field-required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {field.kind === 'multiline' ? (
        <textarea {...common} rows={6} />
      ) : (
        <input {...common} type={INPUT_TYPE[field.kind]} autoComplete={field.autoComplete} />
      )}
      {(problem !== undefined || length.near) && (
        <div className="field-meta">
          {problem !== undefined && (
            <p id={problemId} className="field-problem">
              <Icon name="error" />
              {problem}
            </p>
          )}
          {length.near && (
            <p id={countId} className={length.over ? 'field-count is-over' : 'field-count'}>
              {countText(length)}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * The form for the fields of `fields` (the contract's table unless a test passes another).
 * Without scripts it is a classic form post to the API, which answers with a result page;
 * with scripts it sends JSON, shows the sending on its button, answers with toasts, and makes
 * way for a confirmation once the message is sent. It stays in the page, hidden and empty,
 * so another message starts from the same form.
 */
export function ContactForm<T extends FieldList = ContactFields>({ fields = CONTACT_FIELDS as FieldList as T }: { fields?: T }) {
  const { values, problems, sending, sent, writeAnother, form, onChange, onSubmit } = useContactForm(fields);
  const [typingIn, setTypingIn] = useState<string>();
  const typed = typingIn === undefined ? undefined : lengthState(values[typingIn] ?? '', fields[typingIn]!.limit);
  const announcement = useSettledValue(typed?.near ? `${fields[typingIn!]!.label}: ${countText(typed)}` : '', COUNT_ANNOUNCE_DELAY_MS);

  const onFieldChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    setTypingIn(Object.hasOwn(fields, event.currentTarget.name) ? event.currentTarget.name : undefined);
    onChange(event);
  };

  return (
    <>
      {sent && <ContactSent firstName={sent.firstName} onWriteAnother={writeAnother} />}
      <form
        ref={form}
        hidden={sent !== null}
        className="card contact-form"
        method="post"
        action={API_PATH}
        onSubmit={(event) => void onSubmit(event)}
        aria-labelledby="contact-form-title"
      >
        <h3 id="contact-form-title" className="contact-form-title">
          {joinLastWords(text.title, 'heading')}
        </h3>
        <p className="form-note">{joinLastWords(text.requiredNote)}</p>
        <div className="form-grid">
          {fieldNames(fields).map((name) => (
            <Field key={name} name={name} field={fields[name]!} value={values[name]} problem={problems[name]} onChange={onFieldChange} />
          ))}
        </div>
        <p className="visually-hidden" aria-live="polite">
          {announcement}
        </p>
        {/* People never see or reach this field; bots that fill every input do. */}
        <div className="honeypot" aria-hidden="true">
          <label htmlFor="contact-website">{text.labels.honeypot}</label>
          <input
            id="contact-website"
            name={HONEYPOT_FIELD}
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={values[HONEYPOT_FIELD]}
            onChange={onFieldChange}
          />
        </div>
        <div className="form-footer">
          {/* Busy rather than disabled while sending: a disabled button would drop the focus. */}
          <button type="submit" className="btn btn-primary" aria-busy={sending} aria-disabled={sending} {...keepClear}>
            {sending && <Icon name="loading" className="icon-spinner" />}
            {sending ? text.submitting : text.submit}
            {!sending && <Icon name="arrowRight" />}
          </button>
          <p className="form-privacy">
            {text.privacy} <a href={text.privacyLink.href}>{text.privacyLink.label}</a>.
          </p>
        </div>
      </form>
    </>
  );
}
