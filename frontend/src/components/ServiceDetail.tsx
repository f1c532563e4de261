import { useHomeCopy } from './home-copy';
import { Icon } from './Icon';
import { servicePanelId, serviceTabId } from './ServiceTabs';
import { joinLastWords } from '../typography';

/** Every service's panel, rendered at once (print and search engines read them all); only the selected one shows. */
export function ServiceDetail({ selectedId }: { selectedId: number }) {
  const { services, servicesSection: text } = useHomeCopy();
  return (
    <div className="card service-detail">
      <div className="service-panels">
        {services.map((service) => (
          <div
            key={service.id}
            id={servicePanelId(service.id)}
            className="service-panel"
            role="tabpanel"
            aria-labelledby={serviceTabId(service.id)}
            tabIndex={0}
            hidden={service.id !== selectedId}
          >
            <h3 className="service-title">{joinLastWords(service.title, 'heading')}</h3>
            <p className="service-description">{joinLastWords(service.description)}</p>
            <h4 className="features-title">{joinLastWords(text.featuresLabel, 'heading')}</h4>
            <ul className="features">
              {service.features.map((feature) => (
                <li key={feature}>
                  <Icon name="check" />
                  {joinLastWords(feature)}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <a className="btn btn-primary" href={text.cta.href}>
        {text.cta.label}
        <Icon name="arrowRight" />
      </a>
    </div>
  );
}
