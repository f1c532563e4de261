/**
 * An HTML page read by the HTML standard's own parsing rules (parse5), as a browser reads it
 * before any script or style: its elements, their attributes and text, and a form's controls
 * with the values a browser would show in them. For tests of pages rendered outside a
 * browser (the function's answer, the build's files), without a DOM in their type world.
 */
import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

export interface PageElement {
  tag: string;
  attributes: Readonly<Record<string, string>>;
  /** The text inside it, as parsed (a textarea's first newline already dropped). */
  text: string;
}

const isElement = (node: Node): node is Element => 'tagName' in node;
const childrenOf = (node: Node): Node[] =>
  'content' in node && node.nodeName === 'template' ? [] : 'childNodes' in node ? node.childNodes : [];

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  return childrenOf(node).map(textOf).join('');
}

function elementsOf(node: Node): Element[] {
  return childrenOf(node).flatMap((child) => (isElement(child) ? [child, ...elementsOf(child)] : []));
}

export interface HtmlPage {
  /** Every element in document order. */
  elements: PageElement[];
  /** The elements with this tag name. */
  all(tag: string): PageElement[];
  /** The element with this id. */
  byId(id: string): PageElement | undefined;
  /** The value of each form control that has a name, as a browser fills it in. */
  formValues(): Record<string, string>;
  /** The text a reader reads: the body's text without scripts and styles, and the title. */
  readable(): string;
}

export function readHtml(html: string): HtmlPage {
  const document = parse(html);
  const elements = elementsOf(document).map((element): PageElement => ({
    tag: element.tagName,
    attributes: Object.fromEntries(element.attrs.map((attribute) => [attribute.name, attribute.value])),
    text: textOf(element),
  }));
  const unread = new Set(['script', 'style', 'template']);
  const readableOf = (node: Node): string =>
    isElement(node) && unread.has(node.tagName)
      ? ' '
      : node.nodeName === '#text'
        ? textOf(node)
        : childrenOf(node).map(readableOf).join('');
  return {
    elements,
    all: (tag) => elements.filter((element) => element.tag === tag),
    byId: (id) => elements.find((element) => element.attributes.id === id),
    formValues: () =>
      Object.fromEntries(
        elements
          .filter((element) => (element.tag === 'input' || element.tag === 'textarea') && element.attributes.name !== undefined)
          .map((element) => [element.attributes.name!, element.tag === 'textarea' ? element.text : (element.attributes.value ?? '')]),
      ),
    readable: () => readableOf(document),
  };
}
