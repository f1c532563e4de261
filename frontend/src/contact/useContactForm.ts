import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ChangeEvent,
  type Dispatch,
  type FormEvent,
  type RefObject,
  type SetStateAction,
} from 'react';
import { HONEYPOT_FIELD, STAMP_FIELD, fieldNames, type ContactFields } from '@site/core/contract';
import { type FieldList } from '@site/core/field-spec';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { checkFields, type FieldProblems } from './contact-checks';
import { contactForm } from '../content/site';
import { firstNameOf } from './first-name';
import { focusInView } from '../focus-in-view';
import type * as Sending from './send-message';
import type { SendOutcome } from './send-message';
import { useToast } from '../toast';
import { startStamp, takeStamp } from './stamp-loader';

/** What is in each input of the form: every field of the table, and the honeypot. */
export type ContactFormValues<T extends FieldList = ContactFields> = Record<keyof T & string, string> &
  Record<typeof HONEYPOT_FIELD, string>;

export function emptyValues<T extends FieldList>(fields: T): ContactFormValues<T> {
  return Object.fromEntries([...fieldNames(fields), HONEYPOT_FIELD].map((name) => [name, ''])) as ContactFormValues<T>;
}

let sending: Promise<typeof Sending> | undefined;

/**
 * The send path (send-message.ts), loaded once the form is first used; a send awaits it. A
 * chunk that failed to load (offline, a deploy in between) is asked for again by the next send.
 */
function loadSending(): Promise<typeof Sending> {
  sending ??= import('./send-message').catch((error: unknown) => {
    sending = undefined;
    throw error;
  });
  return sending;
}

/** The form's first focus: the stamp's solver and the send path start loading while the visitor types. */
function onFirstUse(): void {
  startStamp();
  loadSending().catch(() => undefined);
}

/** A send, whatever fails on the way: a chunk that cannot load is a failed send like any other. */
async function sendWith(request: { content: string; key: string }, fields: FieldList): Promise<SendOutcome> {
  try {
    return await (await loadSending()).sendMessage(request, fields);
  } catch (error) {
    console.error(error);
    return { sent: false, problems: {} };
  }
}

/**
 * The fields' problems, shown at the fields. Focus moves to the first refused field once it
 * carries its message (aria-invalid, aria-describedby), so a screen reader reads the message
 * with the field.
 */
function useFieldProblems(form: RefObject<HTMLFormElement | null>, fields: FieldList) {
  const [problems, setProblems] = useState<FieldProblems>({});
  const focusPending = useRef(false);
  useEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    const first = fieldNames(fields).find((name) => problems[name] !== undefined);
    const element = first === undefined ? null : form.current?.elements.namedItem(first);
    if (element instanceof HTMLElement) focusInView(element);
  }, [form, problems, fields]);

  const showProblems = (found: FieldProblems) => {
    focusPending.current = Object.keys(found).length > 0;
    setProblems(found);
  };
  // What was wrong may be fixed now; the next send checks again.
  const forgetProblem = (name: string) =>
    setProblems((current) => {
      if (current[name] === undefined) return current;
      const { [name]: _fixed, ...rest } = current;
      return rest;
    });
  return { problems, showProblems, forgetProblem };
}

/**
 * The form is prerendered and hydrates some time after the page is shown: whatever is in its
 * fields by then (typed before the app was there, or put back by the browser on Back) becomes
 * the form's state before anything renders again, so not a character is lost or sent without.
 */
function useAdoptTypedValues<T extends FieldList>(
  form: RefObject<HTMLFormElement | null>,
  fields: T,
  setValues: Dispatch<SetStateAction<ContactFormValues<T>>>,
) {
  useLayoutEffect(() => {
    const elements = form.current?.elements;
    if (!elements) return;
    const shown = Object.fromEntries(
      Object.keys(emptyValues(fields)).map((name) => {
        const element = elements.namedItem(name);
        return [name, element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? element.value : ''];
      }),
    ) as ContactFormValues<T>;
    setValues((current) => (Object.keys(shown).every((name) => current[name] === shown[name]) ? current : shown));
  }, [form, fields, setValues]);
}

/** A message the firm has: the form makes way for a confirmation that thanks the visitor by their given name. */
export interface SentMessage {
  firstName: string | undefined;
}

/** The given name in the field the browser autofills with a person's name, as it was sent. */
function firstNameIn(body: Record<string, string>, fields: FieldList): string | undefined {
  const nameField = fieldNames(fields).find((name) => fields[name]!.autoComplete === 'name');
  return nameField === undefined ? undefined : firstNameOf(body[nameField]!);
}

/**
 * Back from the confirmation to an empty form, focus on its first field: the visitor came back
 * to write, and that is where writing starts.
 */
function useWriteAnother(
  form: RefObject<HTMLFormElement | null>,
  fields: FieldList,
  sent: SentMessage | null,
  setSent: (sent: null) => void,
) {
  const focusPending = useRef(false);
  useEffect(() => {
    if (sent !== null || !focusPending.current) return;
    focusPending.current = false;
    const [first] = fieldNames(fields);
    const element = first === undefined ? null : form.current?.elements.namedItem(first);
    if (element instanceof HTMLElement) focusInView(element);
  }, [form, fields, sent]);
  return () => {
    focusPending.current = true;
    setSent(null);
  };
}

export function useContactForm<T extends FieldList = ContactFields>(fields: T = CONTACT_FIELDS as FieldList as T) {
  const toast = useToast();
  const [values, setValues] = useState(() => emptyValues(fields));
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<SentMessage | null>(null);
  // State reaches the button one render late; a double click must already see the first send.
  const inFlight = useRef(false);
  // One key per content: a retry of the same message can never be delivered twice.
  const idempotency = useRef<{ key: string; content: string } | null>(null);
  const form = useRef<HTMLFormElement>(null);
  // The toasts of earlier sends: a new send clears them, so one outcome shows at a time.
  const shownToasts = useRef<number[]>([]);
  const { problems, showProblems, forgetProblem } = useFieldProblems(form, fields);
  const writeAnother = useWriteAnother(form, fields, sent, setSent);

  // The browser's own checks serve visitors without scripts; with scripts, the form's own run
  // instead (trimmed values, the spec's toast, messages at the fields).
  useEffect(() => {
    if (form.current) form.current.noValidate = true;
  }, []);
  useAdoptTypedValues(form, fields, setValues);

  const onChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const { name, value } = event.currentTarget;
    setValues((current) => ({ ...current, [name]: value }));
    forgetProblem(name);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlight.current) return;

    // Every field, trimmed, in the table's order; the honeypot as a bot filled it.
    const body: Record<string, string> = Object.fromEntries(fieldNames(fields).map((name) => [name, values[name].trim()]));
    body[HONEYPOT_FIELD] = values[HONEYPOT_FIELD];
    for (const id of shownToasts.current.splice(0)) toast.dismiss(id);
    const show = (id: number) => shownToasts.current.push(id);
    const check = checkFields(body, fields);
    if (check.missingRequired) show(toast.error(contactForm.messages.required));
    showProblems(check.problems);
    if (Object.keys(check.problems).length > 0) return;

    const content = JSON.stringify(body);
    if (idempotency.current?.content !== content) idempotency.current = { key: crypto.randomUUID(), content };
    // Not part of the content: a retry of the same message carries a fresh stamp, or none.
    const stamped = takeStamp();

    inFlight.current = true;
    setSending(true);
    const loading = toast.loading(contactForm.messages.sending);
    const request = {
      content: stamped === undefined ? content : JSON.stringify({ ...body, [STAMP_FIELD]: stamped }),
      key: idempotency.current.key,
    };
    const outcome = await sendWith(request, fields);
    inFlight.current = false;
    setSending(false);
    toast.dismiss(loading);
    if (outcome.sent) {
      idempotency.current = null;
      setValues(emptyValues(fields));
      setSent({ firstName: firstNameIn(body, fields) });
      show(toast.success(contactForm.messages.success));
    } else {
      showProblems(outcome.problems);
      // The form stays in use: the next try gets a stamp of its own.
      startStamp();
      show(toast.error(contactForm.messages.failure, outcome.detail && { detail: outcome.detail }));
    }
  };

  return { values, problems, sending, sent, writeAnother, form, onChange, onSubmit, onFirstUse };
}
