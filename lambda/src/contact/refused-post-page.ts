/**
 * The page that answers a refused form post (a visitor without scripts): the contact form
 * again, every field built from the contact-field list and filled in with what was typed,
 * each refused field with its own sentence at the field, why the message was not sent, and
 * a button that sends it again. Everything typed is escaped, so a message holding markup
 * shows as the text it is. No script and no inline style (the site's CSP allows neither): it
 * wears the site's own stylesheet, under the fixed name the build writes it to. No I/O.
 */
import { firm } from '@site/core/content/firm';
import { HONEYPOT_LABEL, REQUIRED_NOTE } from '@site/core/content/contact-fields';
import { refusedPost as text } from '@site/core/content/refused-post';
import { API_PATH, FORM_ANSWER_STYLESHEET, HONEYPOT_FIELD, INPUT_TYPE, fieldNames } from '@site/core/contract';
import type { ContactFieldSpec, FieldList } from '@site/core/field-spec';
import { telHref } from '@site/core/notation';
import { escapeHtml as escape } from '../mail/notification';

export interface RefusedPost {
  fields: FieldList;
  /** What was typed, by field name; a field not sent is empty. */
  values: Readonly<Record<string, string>>;
  /** The refused fields' sentences, by field name (a 400's `fields`). */
  problems: Readonly<Record<string, string>>;
  /** Why the message was not sent, when no field is the reason (the limit, a fault of ours). */
  reason?: string;
}

const fieldId = (name: string) => `contact-${name}`;

function field(name: string, spec: ContactFieldSpec, value: string, problem: string | undefined): string {
  const id = fieldId(name);
  const problemId = `${id}-problem`;
  const attributes = [
    `id="${id}"`,
    `name="${escape(name)}"`,
    'class="field-input"',
    spec.required && 'required',
    problem !== undefined && `aria-invalid="true" aria-describedby="${problemId}"`,
  ];
  const control =
    spec.kind === 'multiline'
      ? // A textarea's first newline is dropped by the parser; one of ours keeps the visitor's own.
        `<textarea ${attributes.filter(Boolean).join(' ')} rows="6">\n${escape(value)}</textarea>`
      : `<input ${[
          ...attributes,
          `type="${INPUT_TYPE[spec.kind]}"`,
          spec.autoComplete && `autocomplete="${spec.autoComplete}"`,
          `value="${escape(value)}"`,
        ]
          .filter(Boolean)
          .join(' ')}>`;
  const required = spec.required ? '<span class="field-required" aria-hidden="true"> *</span>' : '';
  const problemText =
    problem === undefined ? '' : `<div class="field-meta"><p id="${problemId}" class="field-problem">${escape(problem)}</p></div>`;
  return (
    `<div class="${spec.kind === 'multiline' ? 'field field--wide' : 'field'}">` +
    `<label class="field-label" for="${id}">${escape(spec.label)}${required}</label>${control}${problemText}</div>`
  );
}

/** Why it was not sent: the refused fields, each a link to its field, or the reason. */
function why({ fields, problems, reason }: RefusedPost): string {
  const refused = fieldNames(fields).filter((name) => problems[name] !== undefined);
  if (refused.length === 0) return `<p class="status-text">${escape(reason ?? text.failed)}</p>`;
  const items = refused.map(
    (name) => `<li><a href="#${fieldId(name)}">${escape(fields[name]!.label)}</a>: ${escape(problems[name]!)}</li>`,
  );
  return `<p class="status-text">${escape(text.refused(refused.length))}</p><ul class="form-result-rules">${items.join('')}</ul>`;
}

/** The whole page, as HTML. */
export function refusedPostPage(post: RefusedPost): string {
  const { fields, values, problems } = post;
  const inputs = fieldNames(fields).map((name) => field(name, fields[name]!, values[name] ?? '', problems[name]));
  const direct =
    `<p class="status-text">${escape(text.direct.call)} <a href="${escape(telHref(firm.phone))}">${escape(firm.phone)}</a> ` +
    `${escape(text.direct.mail)} <a href="mailto:${escape(firm.email)}">${escape(firm.email)}</a>.</p>`;
  return (
    '<!doctype html>\n<html lang="nl"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">' +
    `<title>${escape(text.headline)} | ${escape(firm.name)}</title><meta name="robots" content="noindex">` +
    `<link rel="stylesheet" href="${FORM_ANSWER_STYLESHEET}"></head><body>` +
    `<header class="site-header"><div class="container header-inner"><a class="header-logo" href="/">${escape(firm.name)}</a></div></header>` +
    '<main id="main" class="status-main"><div class="status-hero"><div class="container status-inner">' +
    `<h1 class="status-title">${escape(text.headline)}</h1></div></div>` +
    `<div class="container status-inner status-body">${why(post)}<p class="status-text">${escape(text.kept)}</p>` +
    `<form class="card contact-form" method="post" action="${API_PATH}">` +
    `<p class="form-note">${escape(REQUIRED_NOTE)}</p><div class="form-grid">${inputs.join('')}</div>` +
    // People never see or reach this field; bots that fill every input do (as on the site's own form).
    `<div class="honeypot" aria-hidden="true"><label for="contact-${HONEYPOT_FIELD}">${escape(HONEYPOT_LABEL)}</label>` +
    `<input id="contact-${HONEYPOT_FIELD}" name="${HONEYPOT_FIELD}" type="text" tabindex="-1" autocomplete="off" value=""></div>` +
    `<div class="form-footer"><button type="submit" class="btn btn-primary">${escape(text.submit)}</button></div></form>` +
    `${direct}<p class="status-text"><a href="/">${escape(text.home)}</a></p></div></main></body></html>\n`
  );
}
