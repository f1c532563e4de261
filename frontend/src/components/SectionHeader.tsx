import { joinLastWords } from '../typography';

/**
 * What opens a section: a small eyebrow, the title (its id names the section through
 * aria-labelledby) and, where the section has one, the lead paragraph. No wrapper, so each
 * section keeps its own layout around it.
 */
export function SectionHeader({ titleId, eyebrow, title, lead }: { titleId: string; eyebrow: string; title: string; lead?: string }) {
  return (
    <>
      <p className="eyebrow">{eyebrow}</p>
      <h2 id={titleId} className="section-title">
        {joinLastWords(title, 'title')}
      </h2>
      {lead !== undefined && <p className="lead">{joinLastWords(lead)}</p>}
    </>
  );
}
