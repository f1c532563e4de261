import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { services, servicesSection } from '../content/site';
import { Services } from './Services';
import { named } from '@site/testing/as-read';

const visiblePanel = () => screen.getByRole('tabpanel');

describe('Services', () => {
  it('selects the first service by default and shows its description and five features', () => {
    render(<Services />);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false']);
    expect(screen.getByRole('tablist', { name: 'Onze diensten' })).toBeInTheDocument();
    const panel = visiblePanel();
    expect(panel).toHaveAttribute('aria-labelledby', tabs[0]!.id);
    expect(tabs[0]).toHaveAttribute('aria-controls', panel.id);
    expect(panel).toHaveTextContent(services[0]!.description);
    expect(panel.querySelectorAll('li')).toHaveLength(5);
  });

  it('shows the description and features of the service that is clicked', async () => {
    const user = userEvent.setup();
    render(<Services />);
    await user.click(screen.getByRole('tab', { name: /Interim Management/ }));
    expect(screen.getByRole('tab', { name: /Interim Management/ })).toHaveAttribute('aria-selected', 'true');
    expect(visiblePanel()).toHaveTextContent(services[2]!.description);
    for (const feature of services[2]!.features) expect(visiblePanel()).toHaveTextContent(feature);
    expect(screen.getAllByRole('tabpanel', { hidden: true }).filter((p) => !p.hidden)).toHaveLength(1);
  });

  it('moves between tabs with the arrow keys, Home and End, with a roving tabindex', async () => {
    const user = userEvent.setup();
    render(<Services />);
    const tabs = screen.getAllByRole('tab');
    await user.tab();
    expect(tabs[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(tabs[1]).toHaveFocus();
    expect(tabs[1]).toHaveAttribute('aria-selected', 'true');
    expect(tabs.map((t) => t.tabIndex)).toEqual([-1, 0, -1]);
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(tabs[0]).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(tabs[2]).toHaveFocus();
    await user.keyboard('{Home}');
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{End}');
    expect(tabs[2]).toHaveAttribute('aria-selected', 'true');
    expect(visiblePanel()).toHaveTextContent(services[2]!.title);
  });

  it('links "Vraag meer informatie aan" to the contact section and names the firm in the why block', () => {
    render(<Services />);
    expect(screen.getByRole('link', { name: 'Vraag meer informatie aan' })).toHaveAttribute('href', '#contact');
    expect(screen.getByRole('heading', { name: named(servicesSection.why.headline) })).toBeInTheDocument();
    for (const point of ['Expertise', 'Snelheid', 'Betrokkenheid', 'Kwaliteit']) {
      expect(screen.getByRole('heading', { name: named(point) })).toBeInTheDocument();
    }
  });
});
