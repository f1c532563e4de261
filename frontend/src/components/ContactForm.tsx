import type { ChangeEvent, HTMLInputAutoCompleteAttribute } from 'react';
import { FIELD_LIMITS, HONEYPOT_FIELD } from '@site/lambda/contract';
import { contactForm as text } from '../content/site';
import { useContactForm, type ContactFormValues } from '../hooks/useContactForm';
import { Icon } from './Icon';

type VisibleField = keyof typeof FIELD_LIMITS;

interface FieldProps {
  name: VisibleField;
  values: ContactFormValues;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  required?: boolean;
  type?: 'text' | 'email' | 'tel';
  autoComplete?: HTMLInputAutoCompleteAttribute;
  wide?: boolean;
}

function Field({ name, values, onChange, required = false, type = 'text', autoComplete, wide = false }: FieldProps) {
  const id = `contact-${name}`;
  const common = { id, name, value: values[name], onChange, required, maxLength: FIELD_LIMITS[name], className: 'field-input' };
  return (
    <div className={wide ? 'field field--wide' : 'field'}>
      <label className="field-label" htmlFor={id}>
        {text.labels[name]}
        {required && (
          <span className="field-required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {name === 'message' ? <textarea {...common} rows={6} /> : <input {...common} type={type} autoComplete={autoComplete} />}
    </div>
  );
}

export function ContactForm() {
  const { values, sending, onChange, onSubmit } = useContactForm();
  const fieldProps = { values, onChange };
  return (
    // noValidate: the form's own check (trimmed values, a toast) runs instead of the browser's bubbles.
    <form className="card contact-form" noValidate onSubmit={(event) => void onSubmit(event)} aria-labelledby="contact-form-title">
      <h3 id="contact-form-title" className="contact-form-title">
        {text.title}
      </h3>
      <p className="form-note">{text.requiredNote}</p>
      <div className="form-grid">
        <Field name="name" required autoComplete="name" {...fieldProps} />
        <Field name="email" required type="email" autoComplete="email" {...fieldProps} />
        <Field name="phone" type="tel" autoComplete="tel" {...fieldProps} />
        <Field name="company" autoComplete="organization" {...fieldProps} />
        <Field name="message" required wide {...fieldProps} />
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
        <p className="form-privacy">
          {text.privacy} <a href={text.privacyLink.href}>{text.privacyLink.label}</a>.
        </p>
      </div>
    </form>
  );
}
