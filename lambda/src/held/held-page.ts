/**
 * The firm's page of held messages, as HTML (decision 0048): the messages of one page of the
 * list, each with what it said, why it was held and its signals in the digest's Dutch words,
 * and its two buttons; a search; and the pages before and after. Every button is a form post
 * to the page itself carrying the link's token, so the page works without scripts and its
 * address never holds a search or a message. No script and no inline style (the site's CSP
 * allows neither): it wears the site's stylesheet (FORM_ANSWER_STYLESHEET), as the
 * refused-post page does. Everything a visitor typed is escaped. No I/O.
 */
import { DIGEST_TEXT } from '@site/core/content/digest';
import { firm } from '@site/core/content/firm';
import { HELD_PAGE_TEXT as TEXT } from '@site/core/content/held-page';
import { FORM_ANSWER_STYLESHEET, HELD_LINK_PARAMETER, HELD_PATH, fieldNames } from '@site/core/contract';
import type { FieldList } from '@site/core/field-spec';
import type { StoredMessage } from '@site/core/table';
import { escapeHtml as escape, mailtoHref, receivedTime, telHref } from '../mail/notification';

/** Messages on one page of the list. */
export const HELD_PAGE_SIZE = 20;

/** The names of the page's form fields. */
export const HELD_FORM = { action: 'actie', id: 'id', search: 'zoek', page: 'pagina' } as const;
export type HeldAction = 'release' | 'spam' | 'show';
export const HELD_ACTIONS: Record<HeldAction, string> = { release: 'doorsturen', spam: 'spam', show: 'tonen' };

export interface HeldView {
  /** The link's token, carried by every form. */
  token: string;
  /** The held messages that match the search, in the list's order. */
  messages: readonly StoredMessage[];
  /** More were held than one request reads. */
  more: boolean;
  search: string;
  /** 1-based, within the pages there are. */
  page: number;
  /** What the last action did, in Dutch. */
  notice?: string;
  fields: FieldList;
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escape(value)}">`;

/** A form that posts to the page, keeping the link, the search and the page it was on. */
function form(view: HeldView, inner: string, keep: { page?: number; search?: string } = {}, className = ''): string {
  return (
    `<form method="post" action="${HELD_PATH}"${className ? ` class="${className}"` : ''}>` +
    hidden(HELD_LINK_PARAMETER, view.token) +
    hidden(HELD_FORM.search, keep.search ?? view.search) +
    hidden(HELD_FORM.page, String(keep.page ?? view.page)) +
    `${inner}</form>`
  );
}

function fieldValue(kind: string, value: string): string {
  if (kind === 'email') return `<a href="${escape(mailtoHref(value))}">${escape(value)}</a>`;
  const tel = kind === 'phone' ? telHref(value) : undefined;
  return tel ? `<a href="${escape(tel)}">${escape(value)}</a>` : escape(value);
}

/** The field a card is headed with: the visitor's name, or the kenmerk where a message has none. */
const HEADING_FIELD = 'name';

function messageItem(view: HeldView, message: StoredMessage): string {
  const values = message as unknown as Record<string, string | undefined>;
  const heading = values[HEADING_FIELD] ?? message.id;
  // The name is the card's heading already; the other fields follow it.
  const names = fieldNames(view.fields).filter((name) => values[name] && !(name === HEADING_FIELD && values[name] === heading));
  const short = names.filter((name) => view.fields[name]!.kind !== 'multiline');
  const long = names.filter((name) => view.fields[name]!.kind === 'multiline');
  const rows = short.map(
    (name) => `<div><dt>${escape(view.fields[name]!.label)}</dt><dd>${fieldValue(view.fields[name]!.kind, values[name]!)}</dd></div>`,
  );
  const texts = long.map(
    (name) =>
      `<div class="held-text"><h3 class="held-text-label">${escape(view.fields[name]!.label)}</h3>` +
      `<p>${escape(values[name]!)}</p></div>`,
  );
  const signals = (message.signals ?? []).map((signal) => DIGEST_TEXT.signal[signal]);
  const why = message.heldFor ? DIGEST_TEXT.heldFor[message.heldFor] : DIGEST_TEXT.heldFor.suspect;
  const action = (kind: HeldAction, label: string, className: string) =>
    form(
      view,
      hidden(HELD_FORM.action, HELD_ACTIONS[kind]) +
        hidden(HELD_FORM.id, message.id) +
        `<button type="submit" class="btn ${className}">${escape(label)}</button>`,
    );
  const headingId = `bericht-${message.id}`;
  return (
    `<li class="card held-message" aria-labelledby="${headingId}">` +
    `<h2 class="held-name" id="${headingId}">${escape(heading)}</h2>` +
    `<p class="held-meta">${escape(TEXT.received)} ${escape(receivedTime(message.receivedAt))} · ` +
    `${escape(TEXT.reference)} ${escape(message.id)}</p>` +
    `<dl class="held-fields">${rows.join('')}</dl>${texts.join('')}` +
    `<dl class="held-why"><div><dt>${escape(TEXT.why)}</dt><dd>${escape(why)}</dd></div>` +
    `<div><dt>${escape(TEXT.signals)}</dt><dd>${escape(signals.length > 0 ? signals.join('; ') : TEXT.noSignals)}</dd></div>` +
    `<div><dt>${escape(TEXT.score)}</dt><dd>${message.score ?? 0}</dd></div></dl>` +
    `<div class="held-actions">${action('release', TEXT.release, 'btn-primary')}${action('spam', TEXT.spam, 'held-spam')}</div></li>`
  );
}

function searchForm(view: HeldView): string {
  const inner =
    hidden(HELD_FORM.action, HELD_ACTIONS.show) +
    `<label class="field-label" for="held-search">${escape(TEXT.search)}</label>` +
    `<div class="held-search-row"><input id="held-search" class="field-input" type="search" name="${HELD_FORM.search}" ` +
    `value="${escape(view.search)}" autocomplete="off">` +
    `<button type="submit" class="btn btn-primary">${escape(TEXT.searchButton)}</button></div>`;
  // The search box's own value wins over the hidden one: it comes later in the form's data.
  const searchBox = form(view, inner, { page: 1, search: '' }, 'held-search');
  const showAll = view.search
    ? form(
        view,
        hidden(HELD_FORM.action, HELD_ACTIONS.show) + `<button type="submit" class="held-link-button">${escape(TEXT.showAll)}</button>`,
        {
          page: 1,
          search: '',
        },
      )
    : '';
  return searchBox + showAll;
}

function pager(view: HeldView, pages: number): string {
  if (pages <= 1) return '';
  const to = (page: number, label: string) =>
    form(
      view,
      hidden(HELD_FORM.action, HELD_ACTIONS.show) + `<button type="submit" class="btn held-page-button">${escape(label)}</button>`,
      {
        page,
      },
    );
  return (
    `<nav class="held-pager" aria-label="${escape(TEXT.page(view.page, pages))}">` +
    (view.page > 1 ? to(view.page - 1, TEXT.previous) : '') +
    `<p class="held-pager-text">${escape(TEXT.page(view.page, pages))}</p>` +
    (view.page < pages ? to(view.page + 1, TEXT.next) : '') +
    '</nav>'
  );
}

/** The pages a list of `count` messages takes; at least one. */
export const pageCount = (count: number) => Math.max(1, Math.ceil(count / HELD_PAGE_SIZE));

function shell(title: string, body: string): string {
  return (
    '<!doctype html>\n<html lang="nl"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">' +
    `<title>${escape(title)} | ${escape(firm.name)}</title><meta name="robots" content="noindex, nofollow">` +
    // The link's token stays out of every Referer, even to the site's own pages (CloudFront logs referrers);
    // not no-referrer, which would make a browser send its forms' posts with Origin: null.
    '<meta name="referrer" content="strict-origin">' +
    `<link rel="stylesheet" href="${FORM_ANSWER_STYLESHEET}"></head><body>` +
    `<header class="site-header"><div class="container header-inner"><a class="header-logo" href="/">${escape(firm.name)}</a></div></header>` +
    '<main id="main" class="status-main"><div class="status-hero"><div class="container status-inner">' +
    `<h1 class="status-title">${escape(title)}</h1></div></div>${body}</main></body></html>\n`
  );
}

/** The page with the list. */
export function heldPage(view: HeldView): string {
  const pages = pageCount(view.messages.length);
  const shown = view.messages.slice((view.page - 1) * HELD_PAGE_SIZE, view.page * HELD_PAGE_SIZE);
  const notice = view.notice ? `<p class="held-notice" role="status">${escape(view.notice)}</p>` : '';
  const list = shown.length > 0 ? `<ol class="held-list">${shown.map((message) => messageItem(view, message)).join('')}</ol>` : '';
  return shell(
    TEXT.title,
    `<div class="container held-body">${notice}<p class="held-intro">${escape(TEXT.intro)}</p>` +
      `<p class="held-intro">${escape(TEXT.order)}</p>${searchForm(view)}` +
      `<p class="held-count">${escape(TEXT.count(shown.length, view.messages.length, view.search !== ''))}</p>` +
      (view.more ? `<p class="held-intro">${escape(TEXT.more)}</p>` : '') +
      `${list}${pager(view, pages)}</div>`,
  );
}

/** The page that shows nothing of any message: the link is no longer valid, or the post did not come from the page. */
export function heldRefusedPage(text: { title: string; text: string; help?: string }): string {
  return shell(
    text.title,
    `<div class="container status-inner status-body"><p class="status-text">${escape(text.text)}</p>` +
      (text.help ? `<p class="status-text">${escape(text.help)}</p>` : '') +
      `<p class="status-text"><a href="/">${escape(TEXT.home)}</a></p></div>`,
  );
}
