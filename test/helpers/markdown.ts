/** Reading our markdown as a reader's tools do: links, heading anchors, code blocks. */

export interface RelativeLink {
  /** As written, e.g. `docs/decisions.md#errors`. */
  target: string;
  /** The path part, decoded (`%5B` -> `[`), without `./`; '' for a link within the same file. */
  path: string;
  /** The fragment without `#`, or undefined. */
  anchor: string | undefined;
  line: number;
}

/** The text outside fenced code blocks and inline code, line numbers kept. */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '');
  });
}

/** Every link and image of the document that is not absolute (no scheme, not protocol-relative). */
export function relativeLinks(markdown: string): RelativeLink[] {
  const links: RelativeLink[] = [];
  prose(markdown).forEach((line, index) => {
    const targets = [
      ...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
      ...[...line.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/g)].map((m) => m[1]!),
    ];
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      const hash = target.indexOf('#');
      const rawPath = hash < 0 ? target : target.slice(0, hash);
      links.push({
        target,
        path: decodeURIComponent(rawPath).replace(/^\.\//, ''),
        anchor: hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1)),
        line: index + 1,
      });
    }
  });
  return links;
}

/** The anchors GitHub gives the document's headings (lowercased, punctuation dropped, `-1` on repeats). */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .toLowerCase();
    const base = text
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const m of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]!);
  return anchors;
}

/** README's first ```ts block: the snippet a new user pastes first. */
export function readmeFirstSnippet(readme: string): string {
  const m = /```ts\n([\s\S]*?)```/.exec(readme);
  if (!m) throw new Error('README has no ```ts block');
  return m[1]!;
}

/** A fenced code block: its language tag, its text, and the line its fence opens on. */
export interface CodeBlock {
  lang: string;
  code: string;
  line: number;
}

/** Every fenced (```) code block of the document, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let open: CodeBlock | undefined;
  markdown.split('\n').forEach((line, index) => {
    const fence = /^\s*```(\S*)/.exec(line);
    if (open === undefined && fence) open = { lang: fence[1]!, code: '', line: index + 1 };
    else if (open !== undefined && fence) {
      blocks.push(open);
      open = undefined;
    } else if (open !== undefined) open.code += `${line}\n`;
  });
  return blocks;
}

/**
 * Where a code block of docs/browser.md runs in CI: `page` (it imports petstore-router/browser or
 * msw/browser: a chromium page, test/browser-docs.test.ts), `vite` (the Vite config of
 * test/browser-vite.test.ts), else undefined (Node, test/docs-code.test.ts).
 */
export function browserBlockRunner(code: string): 'page' | 'vite' | undefined {
  if (/from '(?:petstore-router\/browser|msw\/browser)'/.test(code)) return 'page';
  return code.startsWith('// vite.config.ts') ? 'vite' : undefined;
}
