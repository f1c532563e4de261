import { useRef, useState, type KeyboardEvent } from 'react';
import { firm, phoneHref, sectionIds, services, servicesSection as text } from '../content/site';
import { useReveal } from '../hooks/useReveal';
import { Icon } from './Icon';
import { SectionHeader } from './SectionHeader';

const tabId = (id: number) => `service-tab-${id}`;
const panelId = (id: number) => `service-panel-${id}`;

/** Keys of the WAI-ARIA tabs pattern; the list is vertical on wide screens and stacked on small ones, so both axes move. */
const STEP: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (i, n) => (i + 1) % n,
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowUp: (i, n) => (i - 1 + n) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_, n) => n - 1,
};

export function Services() {
  const reveal = useReveal<HTMLElement>();
  const [selectedId, setSelectedId] = useState(services[0]!.id);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);

  // Selection follows focus: the panels are already rendered, so showing one costs nothing.
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = STEP[event.key];
    if (!step) return;
    event.preventDefault();
    const current = services.findIndex((service) => service.id === selectedId);
    const next = step(current, services.length);
    setSelectedId(services[next]!.id);
    tabs.current[next]?.focus();
  };

  return (
    <section id={sectionIds.services} className="section section--soft" aria-labelledby="services-title">
      <div className="container">
        <div className="section-header" ref={reveal}>
          <SectionHeader titleId="services-title" eyebrow={text.eyebrow} title={text.headline} lead={text.intro} />
        </div>

        <div className="services-layout" ref={reveal}>
          <div className="service-tabs" role="tablist" aria-label={text.listLabel} aria-orientation="vertical">
            {services.map((service, index) => {
              const selected = service.id === selectedId;
              return (
                <button
                  key={service.id}
                  ref={(element) => {
                    tabs.current[index] = element;
                  }}
                  id={tabId(service.id)}
                  type="button"
                  role="tab"
                  className="service-tab"
                  aria-selected={selected}
                  aria-controls={panelId(service.id)}
                  tabIndex={selected ? 0 : -1}
                  onClick={() => setSelectedId(service.id)}
                  onKeyDown={onKeyDown}
                >
                  <span className="service-tab-icon">
                    <Icon name={service.icon} />
                  </span>
                  <span className="service-tab-text">
                    <span className="service-tab-title">{service.title}</span>
                    <span className="service-tab-summary">{service.summary}</span>
                  </span>
                  <Icon name="arrowRight" className="service-tab-arrow" />
                </button>
              );
            })}
          </div>

          <div className="card service-detail">
            {services.map((service) => (
              <div
                key={service.id}
                id={panelId(service.id)}
                className="service-panel"
                role="tabpanel"
                aria-labelledby={tabId(service.id)}
                tabIndex={0}
                hidden={service.id !== selectedId}
              >
                <h3 className="service-title">{service.title}</h3>
                <p className="service-description">{service.description}</p>
                <h4 className="features-title">{text.featuresLabel}</h4>
                <ul className="features">
                  {service.features.map((feature) => (
                    <li key={feature}>
                      <Icon name="check" />
                      {feature}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
            <a className="btn btn-primary" href={text.cta.href}>
              {text.cta.label}
              <Icon name="arrowRight" />
            </a>
          </div>

          <div className="service-help">
            <p className="service-help-title">{text.help.title}</p>
            <p>{text.help.text}</p>
            <a className="service-help-phone" href={phoneHref}>
              <Icon name="phone" />
              <span>
                {text.help.phoneLabel}: {firm.phone}
              </span>
            </a>
          </div>
        </div>

        <div className="why" ref={reveal}>
          <h3 className="why-title">{text.why.headline}</h3>
          <ul className="why-grid">
            {text.why.points.map((point) => (
              <li key={point.title}>
                <span className="why-icon">
                  <Icon name={point.icon} />
                </span>
                <h4 className="why-point-title">{point.title}</h4>
                <p>{point.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
