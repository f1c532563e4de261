/**
 * The deploy guide as the README writes it: the code blocks of "Deploying to AWS" that are
 * marked `<!-- test:deploy -->`, in order. A `json` block holds the keys an operator adds to
 * the `context` of cdk.json; each line of an `sh` block is one command. Reading them from the
 * README is what keeps the guide and the test from drifting apart.
 */

export const MARKER = '<!-- test:deploy -->';

/** One step of the guide: keys to add to cdk.json's context, or one command to type. */
export type Step = { context: Record<string, unknown> } | { command: string };

export interface Guide {
  /** In README order, so a command runs with only the configuration the guide has given by then. */
  steps: Step[];
  /** Every command of the marked shell blocks, in README order. */
  commands: string[];
}

/** The text of one `## ` section, up to the next one. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`README has no "## ${heading}" section.`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

export function readGuide(readme: string): Guide {
  const text = section(readme, 'Deploying to AWS');
  const blocks = [...text.matchAll(/<!-- test:deploy -->\n```(\w+)\n([\s\S]*?)\n```/g)].map(([, language, body]) => ({
    language: language!,
    body: body!,
  }));
  const markers = text.split('\n').filter((line) => line.trim() === MARKER).length;
  if (markers !== blocks.length) {
    throw new Error(`README "Deploying to AWS": ${markers} ${MARKER} lines, but ${blocks.length} of them stand right above a code block.`);
  }

  const steps: Step[] = [];
  for (const { language, body } of blocks) {
    if (language === 'json') {
      // A fragment of the context object: its members, without the braces.
      steps.push({ context: JSON.parse(`{${body}}`) as Record<string, unknown> });
    } else if (language === 'sh') {
      const lines = body
        .replace(/\\\n\s*/g, ' ')
        .split('\n')
        .map((line) => line.trim());
      steps.push(...lines.filter((line) => line !== '' && !line.startsWith('#')).map((command) => ({ command })));
    } else {
      throw new Error(`README "Deploying to AWS": a ${MARKER} block in ${language}; the test runs sh and reads json.`);
    }
  }
  return { steps, commands: steps.flatMap((step) => ('command' in step ? [step.command] : [])) };
}
