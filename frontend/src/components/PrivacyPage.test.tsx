import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { privacyContact } from '../content/privacy';
import { firm, nav } from '../content/site';
import { PrivacyPage } from './PrivacyPage';

describe('PrivacyPage', () => {
  it('is one Dutch document: an h1, a summary and every section as a titled region with its anchor in the contents', () => {
    render(<PrivacyPage />);
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Privacyverklaring']);
    expect(screen.getByRole('region', { name: 'In het kort' })).toBeInTheDocument();
    const contents = screen.getByRole('navigation', { name: 'Op deze pagina' });
    const anchors = within(contents)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(anchors).toHaveLength(9);
    for (const anchor of anchors) {
      const section = document.querySelector(anchor!)!;
      expect(section.tagName).toBe('SECTION');
      expect(screen.getByRole('region', { name: section.querySelector('h2')!.textContent })).toBe(section);
    }
    expect(screen.getByText(`Laatst bijgewerkt: ${privacyContact.lastUpdated}`)).toBeInTheDocument();
  });

  it('shows the facts the build read from the stack’s settings on the elements the deploy check reads', () => {
    render(<PrivacyPage />);
    const retention = [...document.querySelectorAll('[data-retention-days]')];
    // The messages, their spam assessment and the technical logs are kept for the deploy's retention.
    expect(retention).toHaveLength(3);
    for (const element of retention) {
      expect(element).toHaveAttribute('data-retention-days', String(__RETENTION_DAYS__));
      expect(element).toHaveTextContent(`${__RETENTION_DAYS__} dagen`);
    }
    const spam = document.querySelector('[data-spam-retention-days]')!;
    expect(spam).toHaveAttribute('data-spam-retention-days', String(__SPAM_RETENTION_DAYS__));
    expect(spam).toHaveTextContent(`${__SPAM_RETENTION_DAYS__} dagen`);
    for (const element of document.querySelectorAll('[data-aws-region]')) {
      expect(element).toHaveAttribute('data-aws-region', __AWS_REGION__);
      expect(element).toHaveTextContent(`(AWS-regio ${__AWS_REGION__})`);
    }
    const window = document.querySelector('[data-visitor-window-minutes]');
    expect(window).toHaveAttribute('data-visitor-window-minutes', String(__VISITOR_WINDOW_MINUTES__));
  });

  it('shows each kind of data as a titled record of what, why, basis, where and how long', () => {
    render(<PrivacyPage />);
    const record = document.getElementById('teller')!;
    expect(within(record).getByRole('heading', { level: 3 })).toHaveTextContent('De teller per internetaansluiting');
    expect(
      within(record)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Wat', 'Waarom', 'Grondslag', 'Waar', 'Hoe lang']);
    expect(within(record).getAllByRole('definition')).toHaveLength(5);
  });

  it('links the privacy contact by e-mail and the Autoriteit Persoonsgegevens', () => {
    render(<PrivacyPage />);
    for (const link of screen.getAllByRole('link', { name: privacyContact.email })) {
      expect(link).toHaveAttribute('href', `mailto:${privacyContact.email}`);
    }
    expect(screen.getByRole('link', { name: 'Autoriteit Persoonsgegevens' })).toHaveAttribute(
      'href',
      'https://autoriteitpersoonsgegevens.nl',
    );
  });

  it('has the site’s header, whose section links lead back to the home page, a breadcrumb and the footer', () => {
    render(<PrivacyPage />);
    const menu = screen.getByRole('navigation', { name: nav.label });
    // In the phone's popover, which jsdom (without the site's stylesheet) leaves hidden.
    expect(within(menu).getByRole('link', { name: 'Over ons', hidden: true })).toHaveAttribute('href', '/#about');
    expect(within(menu).getByRole('link', { name: 'Contact', hidden: true })).toHaveAttribute('href', '/#contact');
    const breadcrumb = screen.getByRole('navigation', { name: 'Kruimelpad' });
    expect(within(breadcrumb).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(breadcrumb).getByText('Privacyverklaring')).toHaveAttribute('aria-current', 'page');
    expect(within(screen.getByRole('contentinfo')).getByText(`KvK ${firm.kvk}`)).toBeInTheDocument();
  });
});
