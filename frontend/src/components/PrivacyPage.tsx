import { Fragment } from 'react';
import {
  privacyContact,
  privacyPage as text,
  privacySections,
  type Block,
  type DataRecord,
  type Fact,
  type Inline,
} from '../content/privacy';
import { Footer } from './Footer';
import { Header } from './Header';
import { Icon } from './Icon';
import { SkipLink } from './SkipLink';
import { joinLastWords } from '../typography';

/** Set by the build from the stack's settings (see vite.config.ts), so page and stack agree. */
const sections = privacySections({
  retentionDays: __RETENTION_DAYS__,
  region: __AWS_REGION__,
  visitorWindowMinutes: __VISITOR_WINDOW_MINUTES__,
  spamRetentionDays: __SPAM_RETENTION_DAYS__,
});

/** data-retention-days for retentionDays: where the deploy check reads the fact (infra/lib/stated-facts.ts). */
const factAttribute = (fact: Fact) => ({ [`data-${fact.fact.replace(/[A-Z]/g, (upper) => `-${upper.toLowerCase()}`)}`]: fact.value });

/** A paragraph or list item: its last words kept together where they are text. */
function InlineText({ pieces }: { pieces: Inline[] }) {
  return pieces.map((piece, i) => {
    if (typeof piece === 'string') return <Fragment key={i}>{i === pieces.length - 1 ? joinLastWords(piece, 'prose') : piece}</Fragment>;
    if ('href' in piece) {
      return (
        <a key={i} href={piece.href}>
          {piece.text}
        </a>
      );
    }
    // A deploy is refused when the stack or the code states another value than this (see infra).
    return (
      <strong key={i} {...factAttribute(piece)}>
        {piece.text}
      </strong>
    );
  });
}

const isList = (text: Inline[] | Inline[][]): text is Inline[][] => text.every((piece) => Array.isArray(piece));

/** One kind of data: its heading, and what, why, on which basis, where and how long as a list of terms. */
function RecordContent({ record }: { record: DataRecord }) {
  return (
    <div className="privacy-record" id={record.id}>
      <h3>{joinLastWords(record.title, 'heading')}</h3>
      <dl>
        {record.rows.map(({ label, text }) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              {isList(text) ? (
                <ul className="privacy-list">
                  {text.map((item, i) => (
                    <li key={i}>
                      <InlineText pieces={item} />
                    </li>
                  ))}
                </ul>
              ) : (
                <InlineText pieces={text} />
              )}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function BlockContent({ block }: { block: Block }) {
  if ('record' in block) return <RecordContent record={block.record} />;
  if ('paragraph' in block) {
    return (
      <p>
        <InlineText pieces={block.paragraph} />
      </p>
    );
  }
  return (
    <ul className="privacy-list">
      {block.list.map((item, i) => (
        <li key={i}>
          <InlineText pieces={item} />
        </li>
      ))}
    </ul>
  );
}

export function PrivacyPage() {
  return (
    <>
      <SkipLink />
      <Header linksFrom="/" />
      <main id="main" tabIndex={-1}>
        <div className="privacy-hero">
          <div className="container">
            <nav aria-label={text.breadcrumb.label}>
              <ol className="breadcrumb">
                <li>
                  <a href={text.breadcrumb.home.href}>{text.breadcrumb.home.label}</a>
                </li>
                <li aria-current="page">{text.title}</li>
              </ol>
            </nav>
            <h1 className="privacy-title">{text.title}</h1>
            <p className="privacy-lead">{joinLastWords(text.lead)}</p>
            <p className="privacy-updated">
              {text.updatedLabel} {privacyContact.lastUpdated}
            </p>
          </div>
        </div>

        <div className="container privacy-layout">
          <nav className="privacy-toc" aria-labelledby="privacy-toc-title">
            <p id="privacy-toc-title" className="privacy-toc-title">
              {text.tocLabel}
            </p>
            <ol>
              {sections.map((section) => (
                <li key={section.id}>
                  <a href={`#${section.id}`}>{section.title}</a>
                </li>
              ))}
            </ol>
          </nav>

          <div className="privacy-body">
            <section className="privacy-summary" aria-labelledby="privacy-summary-title">
              <h2 id="privacy-summary-title">{text.summary.title}</h2>
              <ul>
                {text.summary.points.map((point) => (
                  <li key={point}>
                    <Icon name="check" />
                    {joinLastWords(point)}
                  </li>
                ))}
              </ul>
            </section>

            {sections.map((section) => (
              <section key={section.id} id={section.id} className="privacy-section" aria-labelledby={`${section.id}-title`}>
                <h2 id={`${section.id}-title`}>{joinLastWords(section.title, 'heading')}</h2>
                {section.blocks.map((block, i) => (
                  <BlockContent key={i} block={block} />
                ))}
              </section>
            ))}
          </div>
        </div>
      </main>
      <Footer />
    </>
  );
}
