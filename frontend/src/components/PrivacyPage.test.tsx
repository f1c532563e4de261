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
    expect(anchors).toHaveLength(10);
    for (const anchor of anchors) {
      const section = document.querySelector(anchor!)!;
      expect(section.tagName).toBe('SECTION');
      expect(screen.getByRole('region', { name: section.querySelector('h2')!.textContent })).toBe(section);
    }
    expect(screen.getByText(`Laatst bijgewerkt: ${privacyContact.lastUpdated}`)).toBeInTheDocument();
  });

  it('shows the retention and region the build read from the stack’s settings, on the elements the deploy check reads', () => {
    render(<PrivacyPage />);
    const retention = document.querySelectorAll('[data-retention-days]');
    expect(retention).toHaveLength(1);
    expect(retention[0]).toHaveAttribute('data-retention-days', String(__RETENTION_DAYS__));
    expect(retention[0]).toHaveTextContent(`${__RETENTION_DAYS__} dagen`);
    expect(screen.getByText(new RegExp(`\\(AWS-regio ${__AWS_REGION__}\\), binnen de Europese Unie`))).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('data-aws-region', __AWS_REGION__);
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
    expect(within(menu).getByRole('link', { name: 'Over ons' })).toHaveAttribute('href', '/#about');
    expect(within(menu).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/#contact');
    const breadcrumb = screen.getByRole('navigation', { name: 'Kruimelpad' });
    expect(within(breadcrumb).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(breadcrumb).getByText('Privacyverklaring')).toHaveAttribute('aria-current', 'page');
    expect(within(screen.getByRole('contentinfo')).getByText(`KvK ${firm.kvk}`)).toBeInTheDocument();
  });
});
