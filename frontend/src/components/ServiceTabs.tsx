import { useRef, type KeyboardEvent } from 'react';
import { useHomeCopy } from './home-copy';
import { Icon } from './Icon';
import { joinLastWords } from '../typography';

export const serviceTabId = (id: number) => `service-tab-${id}`;
export const servicePanelId = (id: number) => `service-panel-${id}`;

/** Keys of the WAI-ARIA tabs pattern; the list is vertical on wide screens and stacked on small ones, so both axes move. */
const STEP: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (i, n) => (i + 1) % n,
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowUp: (i, n) => (i - 1 + n) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_, n) => n - 1,
};

interface ServiceTabsProps {
  selectedId: number;
  onSelect: (id: number) => void;
}

/** The list of services, one tab each, that chooses the service the detail shows. */
export function ServiceTabs({ selectedId, onSelect }: ServiceTabsProps) {
  const { services, servicesSection: text } = useHomeCopy();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);

  // Selection follows focus: the panels are already rendered, so showing one costs nothing.
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = STEP[event.key];
    if (!step) return;
    event.preventDefault();
    const current = services.findIndex((service) => service.id === selectedId);
    const next = step(current, services.length);
    onSelect(services[next]!.id);
    tabs.current[next]?.focus();
  };

  return (
    <div className="service-tabs" role="tablist" aria-label={text.listLabel} aria-orientation="vertical">
      {services.map((service, index) => {
        const selected = service.id === selectedId;
        return (
          <button
            key={service.id}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            id={serviceTabId(service.id)}
            type="button"
            role="tab"
            className="service-tab"
            aria-selected={selected}
            aria-controls={servicePanelId(service.id)}
            tabIndex={selected ? 0 : -1}
            onClick={() => onSelect(service.id)}
            onKeyDown={onKeyDown}
          >
            <span className="service-tab-icon">
              <Icon name={service.icon} />
            </span>
            <span className="service-tab-text">
              <span className="service-tab-title">{service.title}</span>
              <span className="service-tab-summary">{joinLastWords(service.summary)}</span>
            </span>
            <Icon name="arrowRight" className="service-tab-arrow" />
          </button>
        );
      })}
    </div>
  );
}
