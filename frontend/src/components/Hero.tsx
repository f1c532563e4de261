import { sectionIds } from '../content/site';
import { useHomeCopy } from './home-copy';
import { useParallax } from '../hooks/useParallax';
import { HeroVisual } from './HeroVisual';
import { Icon } from './Icon';
import { joinLastWords } from '../typography';

/** Spec: the hero image follows the mouse by up to 10 px each way. */
export const HERO_PARALLAX_PX = 10;

export function Hero() {
  const { hero } = useHomeCopy();
  const visual = useParallax<HTMLDivElement>(HERO_PARALLAX_PX);
  return (
    <section id={sectionIds.home} className="hero" aria-labelledby="hero-title">
      <div className="container hero-inner">
        <div className="hero-copy">
          <p className="hero-badge" lang="en">
            <span className="hero-badge-dot" aria-hidden="true" />
            {hero.badge}
          </p>
          <h1 id="hero-title" className="hero-title">
            {hero.headline.lead} <span className="hero-title-accent">{joinLastWords(hero.headline.accent, 'title')}</span>
          </h1>
          <p className="hero-intro">{joinLastWords(hero.intro)}</p>
          <div className="hero-actions">
            <a className="btn btn-primary" href={hero.primaryCta.href}>
              {hero.primaryCta.label}
              <Icon name="arrowRight" />
            </a>
            <a className="btn btn-outline-light" href={hero.secondaryCta.href}>
              {hero.secondaryCta.label}
            </a>
          </div>
          <ul className="hero-highlights">
            {hero.highlights.map((highlight) => (
              <li key={highlight}>
                <Icon name="check" />
                {joinLastWords(highlight)}
              </li>
            ))}
          </ul>
        </div>
        <div className="hero-visual" ref={visual}>
          <HeroVisual />
        </div>
      </div>
      <a className="hero-scroll" href={hero.scrollDown.href} lang="en">
        {hero.scrollDown.label}
        <Icon name="arrowDown" />
      </a>
    </section>
  );
}
