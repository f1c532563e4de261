import { useState, type Ref } from 'react';
import { firm, phoneHref, sectionIds } from '../content/site';
import { useHomeCopy } from './home-copy';
import { useReveal } from '../hooks/useReveal';
import { Icon } from './Icon';
import { SectionHeader } from './SectionHeader';
import { ServiceDetail } from './ServiceDetail';
import { ServiceTabs } from './ServiceTabs';
import { joinLastWords } from '../typography';

export function Services() {
  const { services, servicesSection: text } = useHomeCopy();
  const reveal = useReveal<HTMLElement>();
  const [selectedId, setSelectedId] = useState<number>(services[0]!.id);

  return (
    <section id={sectionIds.services} className="section section--soft" aria-labelledby="services-title">
      <div className="container">
        <div className="section-header" ref={reveal}>
          <SectionHeader titleId="services-title" eyebrow={text.eyebrow} title={text.headline} lead={text.intro} />
        </div>

        <div className="services-layout" ref={reveal}>
          <ServiceTabs selectedId={selectedId} onSelect={setSelectedId} />
          <ServiceDetail selectedId={selectedId} />
          <ServiceHelp />
        </div>

        <WhyUs reveal={reveal} />
      </div>
    </section>
  );
}

function ServiceHelp() {
  const { servicesSection: text } = useHomeCopy();
  return (
    <div className="service-help">
      <p className="service-help-title">{joinLastWords(text.help.title, 'heading')}</p>
      <p>{joinLastWords(text.help.text)}</p>
      <a className="service-help-phone" href={phoneHref}>
        <Icon name="phone" />
        <span>
          {text.help.phoneLabel}: {firm.phone}
        </span>
      </a>
    </div>
  );
}

function WhyUs({ reveal }: { reveal: Ref<HTMLDivElement> }) {
  const { servicesSection: text } = useHomeCopy();
  return (
    <div className="why" ref={reveal}>
      <h3 className="why-title">{joinLastWords(text.why.headline, 'title')}</h3>
      <ul className="why-grid">
        {text.why.points.map((point) => (
          <li key={point.title}>
            <span className="why-icon">
              <Icon name={point.icon} />
            </span>
            <h4 className="why-point-title">{joinLastWords(point.title, 'heading')}</h4>
            <p>{joinLastWords(point.text)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
