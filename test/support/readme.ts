import { readFileSync } from 'node:fs';

export interface CodeBlock {
  /** The first word of the info string (`sh`, `ts`). */
  lang: string;
  /** The other words of the info string (`not-walkthrough`, `expect=423`). */
  flags: string[];
  code: string;
  /** 1-based line of the opening fence in README.md. */
  line: number;
}

export const README = new URL('../../README.md', import.meta.url);

/** The fenced code blocks of README.md, in document order. */
export function readmeBlocks(): CodeBlock[] {
  const lines = readFileSync(README, 'utf8').replace(/\r\n/g, '\n').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S+)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`README.md line ${i + 1}: a code block is never closed`);
    blocks.push({ lang: open[1]!, flags: open[2]!.trim().split(/\s+/).filter(Boolean), code: lines.slice(i + 1, end).join('\n'), line: i + 1 });
    i = end;
  }
  return blocks;
}
