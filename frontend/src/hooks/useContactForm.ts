import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import {
  API_PATH,
  CONTACT_FIELDS,
  HONEYPOT_FIELD,
  IDEMPOTENCY_HEADER,
  fieldNames,
  requiredFields,
  type ContactFields,
  type FieldTable,
} from '@site/lambda/contract';
import { contactForm } from '../content/site';
import { useToast } from '../toast';

/** A request without an answer by then counts as failed, so the visitor is never left waiting. */
export const REQUEST_TIMEOUT_MS = 15_000;

/** What is in each input of the form: every field of the table, and the honeypot. */
export type ContactFormValues<T extends FieldTable = ContactFields> = Record<keyof T & string, string> &
  Record<typeof HONEYPOT_FIELD, string>;

export function emptyValues<T extends FieldTable>(fields: T): ContactFormValues<T> {
  return Object.fromEntries([...fieldNames(fields), HONEYPOT_FIELD].map((name) => [name, ''])) as ContactFormValues<T>;
}

export function useContactForm<T extends FieldTable = ContactFields>(fields: T = CONTACT_FIELDS as FieldTable as T) {
  const toast = useToast();
  const [values, setValues] = useState(() => emptyValues(fields));
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

    // Every field, trimmed, in the table's order; the honeypot as a bot filled it.
    const body: Record<string, string> = Object.fromEntries(fieldNames(fields).map((name) => [name, values[name].trim()]));
    body[HONEYPOT_FIELD] = values[HONEYPOT_FIELD];
    if (requiredFields(fields).some((name) => body[name] === '')) {
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
      setValues(emptyValues(fields));
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
