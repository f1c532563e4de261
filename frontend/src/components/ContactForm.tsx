import type { ChangeEvent } from 'react';
import {
  CONTACT_FIELDS,
  HONEYPOT_FIELD,
  INPUT_TYPE,
  fieldNames,
  type ContactFieldSpec,
  type ContactFields,
  type FieldTable,
} from '@site/lambda/contract';
import { contactForm as text } from '../content/site';
import { useContactForm } from '../hooks/useContactForm';
import { Icon } from './Icon';

interface FieldProps {
  name: string;
  field: ContactFieldSpec;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
}

function Field({ name, field, value, onChange }: FieldProps) {
  const id = `contact-${name}`;
  const common = { id, name, value, onChange, required: field.required, maxLength: field.limit, className: 'field-input' };
  return (
    <div className={field.kind === 'multiline' ? 'field field--wide' : 'field'}>
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
    </div>
  );
}

/** The form for the fields of `fields` (the contract's table unless a test passes another). */
export function ContactForm<T extends FieldTable = ContactFields>({ fields = CONTACT_FIELDS as FieldTable as T }: { fields?: T }) {
  const { values, sending, onChange, onSubmit } = useContactForm(fields);
  return (
    // noValidate: the form's own check (trimmed values, a toast) runs instead of the browser's bubbles.
    <form className="card contact-form" noValidate onSubmit={(event) => void onSubmit(event)} aria-labelledby="contact-form-title">
      <h3 id="contact-form-title" className="contact-form-title">
        {text.title}
      </h3>
      <p className="form-note">{text.requiredNote}</p>
      <div className="form-grid">
        {fieldNames(fields).map((name) => (
          <Field key={name} name={name} field={fields[name]!} value={values[name]} onChange={onChange} />
        ))}
      </div>
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
          onChange={onChange}
        />
      </div>
      <div className="form-footer">
        <button type="submit" className="btn btn-primary" disabled={sending}>
          {sending ? text.submitting : text.submit}
          {!sending && <Icon name="arrowRight" />}
        </button>
        <p className="form-privacy">{text.privacy}</p>
      </div>
    </form>
  );
}
