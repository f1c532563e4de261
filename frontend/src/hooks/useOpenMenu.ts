import { useEffect, type RefObject } from 'react';

/** On the root element while a menu is open; the stylesheet keeps the page behind it still. */
export const MENU_OPEN_CLASS = 'menu-open';

/**
 * While a dropdown menu is open: the page behind it does not scroll, and Escape or a click or
 * tap anywhere but the menu and its button closes it. Escape puts focus back on the button,
 * where the keyboard user left off.
 */
export function useOpenMenu(
  open: boolean,
  close: () => void,
  { menu, button }: { menu: RefObject<HTMLElement | null>; button: RefObject<HTMLElement | null> },
): void {
  useEffect(() => {
    if (!open) return;
    const root = document.documentElement;
    root.classList.add(MENU_OPEN_CLASS);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      button.current?.focus();
    };
    const onClick = (event: MouseEvent) => {
      const target = event.target as Node;
      if (menu.current?.contains(target) || button.current?.contains(target)) return;
      close();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('click', onClick);
    return () => {
      root.classList.remove(MENU_OPEN_CLASS);
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('click', onClick);
    };
  }, [open, close, menu, button]);
}
