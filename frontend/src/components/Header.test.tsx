import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { nav as navText } from '../content/site';
import { MENU_OPEN_CLASS } from '../hooks/useOpenMenu';
import { Header } from './Header';

function scrollTo(y: number) {
  act(() => {
    window.scrollY = y;
    window.dispatchEvent(new Event('scroll'));
  });
}

describe('Header', () => {
  it('is transparent at 10 px and solid from 11 px, and transparent again when scrolled back', () => {
    scrollTo(0);
    render(<Header />);
    const header = screen.getByRole('banner');
    expect(header).not.toHaveClass('is-scrolled');
    scrollTo(10);
    expect(header).not.toHaveClass('is-scrolled');
    scrollTo(11);
    expect(header).toHaveClass('is-scrolled');
    scrollTo(3);
    expect(header).not.toHaveClass('is-scrolled');
  });

  it('is solid at once when the page opens already scrolled (a #section link)', () => {
    scrollTo(1200);
    render(<Header />);
    expect(screen.getByRole('banner')).toHaveClass('is-scrolled');
    scrollTo(0);
  });

  it('has a logo link to / and the four section links', () => {
    render(<Header />);
    expect(screen.getByRole('link', { name: navText.homeLinkLabel })).toHaveAttribute('href', '/');
    const nav = screen.getByRole('navigation', { name: navText.label });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Home', '#home'],
      ['Over ons', '#about'],
      ['Diensten', '#services'],
      ['Contact', '#contact'],
    ]);
  });

  it('opens and closes the mobile menu with its button; a link click and Escape close it', async () => {
    const user = userEvent.setup();
    render(<Header />);
    const button = screen.getByRole('button', { name: navText.menuButton });
    const menu = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(menu).toBeInTheDocument();
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('banner')).toHaveClass('is-open');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.click(button);
    await user.click(within(menu).getByRole('link', { name: 'Diensten' }));
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.click(button);
    await user.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('keeps the page behind the open menu still, and closes on a click outside it but not inside it', async () => {
    const user = userEvent.setup();
    render(
      <>
        <Header />
        <p>Elders op de pagina</p>
      </>,
    );
    const button = screen.getByRole('button', { name: navText.menuButton });
    const root = document.documentElement;
    expect(root).not.toHaveClass(MENU_OPEN_CLASS);

    await user.click(button);
    expect(root).toHaveClass(MENU_OPEN_CLASS);
    await user.click(document.getElementById(button.getAttribute('aria-controls')!)!);
    expect(button).toHaveAttribute('aria-expanded', 'true');

    await user.click(screen.getByText('Elders op de pagina'));
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(root).not.toHaveClass(MENU_OPEN_CLASS);
  });
});
