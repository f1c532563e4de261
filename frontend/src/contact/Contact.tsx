import { Fragment, useState } from 'react';
import { expertise, expertiseInDutch, firm, phoneHref, sectionIds } from '../content/site';
import { useHomeCopy } from '../components/home-copy';
import { useReveal } from '../hooks/useReveal';
import { useRotatingItem } from '../hooks/useRotatingItem';
import { ContactForm } from './ContactForm';
import { EXPERTISE_FADE_MS, EXPERTISE_INTERVAL_MS } from './expertise-rotation';
import { Icon } from '../components/Icon';
import { SectionHeader } from '../components/SectionHeader';
import { joinLastWords } from '../typography';

/** An id, so that a tap on it before the app started is replayed once it has (hydration.ts). */
const PAUSE_BUTTON_ID = 'expertise-pause';

const termLang = (term: (typeof expertise)[number]) => (expertiseInDutch.includes(term) ? undefined : 'en');

export function Contact() {
  const { contact } = useHomeCopy();
  const reveal = useReveal<HTMLElement>();
  const { street, postalCode, city } = firm.address;
  return (
    <section id={sectionIds.contact} className="section" aria-labelledby="contact-title">
      <div className="container contact-layout">
        <div className="contact-info" ref={reveal}>
          <SectionHeader titleId="contact-title" eyebrow={contact.eyebrow} title={contact.headline} lead={contact.intro} />
          <ExpertiseLine />
          <div className="contact-details">
            <h3 className="contact-details-title">{joinLastWords(contact.details.title, 'heading')}</h3>
            <address>
              <ul className="details-list">
                <li>
                  <span className="details-icon">
                    <Icon name="mapPin" />
                  </span>
                  <span>
                    <span className="details-label">{contact.details.addressLabel}</span>
                    {street}, <span className="nowrap">{`${postalCode} ${city}`}</span>
                  </span>
                </li>
                <li>
                  <span className="details-icon">
                    <Icon name="mail" />
                  </span>
                  <span>
                    <span className="details-label">{contact.details.emailLabel}</span>
                    <a href={`mailto:${firm.email}`}>{firm.email}</a>
                  </span>
                </li>
                <li>
                  <span className="details-icon">
                    <Icon name="phone" />
                  </span>
                  <span>
                    <span className="details-label">{contact.details.phoneLabel}</span>
                    <a href={phoneHref}>{firm.phone}</a>
                  </span>
                </li>
              </ul>
            </address>
          </div>
        </div>
        <div ref={reveal}>
          <ContactForm />
        </div>
      </div>
    </section>
  );
}

/**
 * All terms sit in one grid cell and only the current one is visible, so the line is always
 * as large as its longest term: switching never moves the page (CLS). Screen readers get the
 * whole list once instead of a word that keeps changing.
 */
function ExpertiseLine() {
  const { contact } = useHomeCopy();
  const [paused, setPaused] = useState(false);
  const { index, visible } = useRotatingItem(expertise, EXPERTISE_INTERVAL_MS, EXPERTISE_FADE_MS, paused);
  return (
    <div className="expertise">
      <p className="expertise-label">
        {contact.expertiseLabel}
        <span className="visually-hidden">
          {expertise.map((term, i) => (
            <Fragment key={term}>
              {i === 0 ? ' ' : ', '}
              <span lang={termLang(term)}>{term}</span>
            </Fragment>
          ))}
        </span>
      </p>
      <div className="expertise-row">
        <p className={visible ? 'expertise-terms' : 'expertise-terms is-fading'} aria-hidden="true">
          {expertise.map((term, i) => (
            <span key={term} className="expertise-term" lang={termLang(term)} data-active={i === index ? '' : undefined}>
              {term}
            </span>
          ))}
        </p>
        <button
          id={PAUSE_BUTTON_ID}
          type="button"
          className="expertise-pause"
          aria-pressed={paused}
          aria-label={contact.pauseRotation}
          onClick={() => setPaused((value) => !value)}
        >
          <Icon name={paused ? 'play' : 'pause'} />
        </button>
      </div>
    </div>
  );
}
