import { sectionIds } from '../content/site';
import { useHomeCopy } from './home-copy';
import { useReveal } from '../hooks/useReveal';
import { Icon } from './Icon';
import { SectionHeader } from './SectionHeader';
import { joinLastWords } from '../typography';

export function About() {
  const { about } = useHomeCopy();
  const reveal = useReveal<HTMLElement>();
  return (
    <section id={sectionIds.about} className="section" aria-labelledby="about-title">
      <div className="container">
        <div className="about-intro" ref={reveal}>
          <div>
            <SectionHeader titleId="about-title" eyebrow={about.eyebrow} title={about.headline} />
          </div>
          <div className="about-text">
            <p className="lead">{joinLastWords(about.intro)}</p>
            <p>{joinLastWords(about.body)}</p>
            <ul className="pillars">
              {about.pillars.map((pillar) => (
                <li key={pillar}>{pillar}</li>
              ))}
            </ul>
          </div>
        </div>

        <ul className="role-cards">
          {about.cards.map((card) => (
            <li key={card.title} className="card role-card" ref={reveal}>
              <span className="icon-tile">
                <Icon name={card.icon} />
              </span>
              <h3 className="card-title">{joinLastWords(card.title, 'heading')}</h3>
              <p>{joinLastWords(card.text)}</p>
            </li>
          ))}
        </ul>

        <div className="philosophy" ref={reveal}>
          <div className="philosophy-head">
            <span className="philosophy-icon">
              <Icon name="philosophy" />
            </span>
            <h3 className="philosophy-title">{joinLastWords(about.philosophy.title, 'heading')}</h3>
          </div>
          <div className="philosophy-body">
            <p>{joinLastWords(about.philosophy.text)}</p>
            <p className="philosophy-closing">{joinLastWords(about.philosophy.closing)}</p>
          </div>
          {/* The 'streepje voor' in the corner, in a band of its own below the text. */}
          <span className="philosophy-stripes" aria-hidden="true">
            <span />
            <span />
          </span>
        </div>
      </div>
    </section>
  );
}
