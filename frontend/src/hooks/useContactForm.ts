import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { API_PATH, HONEYPOT_FIELD, IDEMPOTENCY_HEADER, REQUIRED_FIELDS, type ContactRequestBody } from '@site/lambda/contract';
import { contactForm } from '../content/site';
import { useToast } from '../toast';

/** A request without an answer by then counts as failed, so the visitor is never left waiting. */
export const REQUEST_TIMEOUT_MS = 15_000;

export type ContactFormField = 'name' | 'email' | 'phone' | 'company' | 'message' | typeof HONEYPOT_FIELD;
export type ContactFormValues = Record<ContactFormField, string>;

const EMPTY: ContactFormValues = { name: '', email: '', phone: '', company: '', message: '', [HONEYPOT_FIELD]: '' };

export function useContactForm() {
  const toast = useToast();
  const [values, setValues] = useState<ContactFormValues>(EMPTY);
  const [sending, setSending] = useState(false);
  // State reaches the button one render late; a double click must already see the first send.
  const inFlight = useRef(false);
  // One key per content: a retry of the same message can never be delivered twice.
  const idempotency = useRef<{ key: string; content: string } | null>(null);

  const onChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const { name, value } = event.currentTarget;
    setValues((current) => ({ ...current, [name]: value }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlight.current) return;

    const body: Required<ContactRequestBody> = {
      name: values.name.trim(),
      email: values.email.trim(),
      phone: values.phone.trim(),
      company: values.company.trim(),
      message: values.message.trim(),
      [HONEYPOT_FIELD]: values[HONEYPOT_FIELD],
    };
    if (REQUIRED_FIELDS.some((field) => body[field] === '')) {
      toast.error(contactForm.messages.required);
      return;
    }

    const content = JSON.stringify(body);
    if (idempotency.current?.content !== content) idempotency.current = { key: crypto.randomUUID(), content };

    inFlight.current = true;
    setSending(true);
    const loading = toast.loading(contactForm.messages.sending);
    try {
      const response = await fetch(API_PATH, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', [IDEMPOTENCY_HEADER]: idempotency.current.key },
        body: content,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`${API_PATH} answered ${response.status} ${response.statusText}`.trim());
      idempotency.current = null;
      setValues(EMPTY);
      toast.dismiss(loading);
      toast.success(contactForm.messages.success);
    } catch (error) {
      console.error(error);
      toast.dismiss(loading);
      toast.error(contactForm.messages.failure);
    } finally {
      inFlight.current = false;
      setSending(false);
    }
  };

  return { values, sending, onChange, onSubmit };
}
