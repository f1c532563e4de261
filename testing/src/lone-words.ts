/** Lone last words, measured in a real browser, where the type is set. */
import type { Page } from 'playwright-core';

/**
 * The texts of the page that end on a lone word: a last line of one word, less than half as
 * wide as the line above it, the short line that reads as left over ('…een streepje / voor.').
 * A text of one line or one word cannot have one; a balanced heading whose last word is about
 * as long as the line above ('Laten we / kennismaken') does not.
 */
export function loneLastWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const lone: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      if (element.closest('.visually-hidden, [aria-hidden="true"]') || element.getClientRects().length === 0) continue;
      const words: { text: string; box: DOMRect }[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        // Words only a screen reader gets are not set on any line a reader sees.
        if (node.parentElement!.closest('.visually-hidden, [aria-hidden="true"]')) continue;
        for (const match of node.textContent!.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          // A word broken by a hyphen counts where it starts.
          const box = range.getClientRects()[0];
          if (box) words.push({ text: match[0], box });
        }
      }
      const last = words.at(-1);
      const before = words.at(-2);
      if (!last || !before || last.box.top - before.box.top <= 4) continue;
      const lineAbove = words.filter((word) => Math.abs(word.box.top - before.box.top) <= 4);
      const widthAbove = before.box.right - lineAbove[0]!.box.left;
      if (last.box.width < widthAbove / 2) lone.push(`${element.tagName.toLowerCase()}: …${before.text} | ${last.text}`);
    }
    return lone;
  }, selector);
}
