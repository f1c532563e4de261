/**
 * The guides' commands as the guides write them: the code blocks of a guide under docs/ marked
 * `<!-- test:<name> -->` (test:deploy in first-deploy.md; test:release, test:rollback,
 * test:restore and test:rotation in on-call.md), in order. A `json` block holds the keys an
 * operator adds to the `context` of cdk.json; each line of an `sh` block is one command. A block
 * inside a numbered step is indented like the step; the indent is not part of it. Reading the
 * commands from the guides is what keeps the guides and the tests from drifting apart.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

export type GuideFile = 'first-deploy.md' | 'on-call.md';

export function guideText(file: GuideFile): string {
  return readFileSync(join(ROOT, 'docs', file), 'utf8');
}

/** One step of a guide: keys to add to cdk.json's context, or one command to type. */
export type Step = { context: Record<string, unknown> } | { command: string };

export interface Guide {
  /** In the guide's order, so a command runs with only the configuration the guide has given by then. */
  steps: Step[];
  /** Every command of the marked shell blocks, in the guide's order. */
  commands: string[];
}

export interface Block {
  language: string;
  body: string;
}

/** The blocks marked `<!-- test:<name> -->`, in order; every such marker must stand right above one. */
export function markedBlocks(markdown: string, name: string, where: string): Block[] {
  const marker = `<!-- test:${name} -->`;
  const pattern = new RegExp(`^([ \\t]*)${marker}\\n\\1\`\`\`(\\w+)\\n([\\s\\S]*?)\\n\\1\`\`\`[ \\t]*$`, 'gm');
  const blocks = [...markdown.matchAll(pattern)].map(([, indent, language, body]) => ({
    language: language!,
    body: body!
      .split('\n')
      .map((line) => (line.startsWith(indent!) ? line.slice(indent!.length) : line))
      .join('\n'),
  }));
  const markers = markdown.split('\n').filter((line) => line.trim() === marker).length;
  if (markers === 0) throw new Error(`${where} has no ${marker} block.`);
  if (markers !== blocks.length) {
    throw new Error(`${where}: ${markers} ${marker} lines, but ${blocks.length} of them stand right above a code block.`);
  }
  return blocks;
}

/** The steps of the blocks marked `<!-- test:<name> -->`: configuration to add, commands to type. */
export function readGuide(markdown: string, name: string, where: string): Guide {
  const steps: Step[] = [];
  for (const { language, body } of markedBlocks(markdown, name, where)) {
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
      throw new Error(`${where}: a test:${name} block in ${language}; the test runs sh and reads json.`);
    }
  }
  return { steps, commands: steps.flatMap((step) => ('command' in step ? [step.command] : [])) };
}
