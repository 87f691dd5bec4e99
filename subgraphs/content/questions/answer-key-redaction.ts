/**
 * A stored QTI item as a caller without answer-key access may read it: the elements that state or
 * score the correct answers are cut out, every other byte stays as written. The stored XML was
 * checked well-formed when its version was appended, so a scan that skips comments, CDATA,
 * processing instructions and quoted attribute values finds every tag.
 */

/** By local name, QTI 3 and QTI 2.x: the keys, their score maps, and the processing that can name them. */
const ANSWER_ELEMENTS = new Set([
  'qti-correct-response',
  'correctResponse',
  'qti-mapping',
  'mapping',
  'qti-area-mapping',
  'areaMapping',
  'qti-response-processing',
  'responseProcessing',
]);

const SKIPPED_MARKUP: Array<[open: string, close: string]> = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
  ['<!', '>'],
];

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  end: number;
}

function tagAt(xml: string, start: number): Tag {
  const closing = xml[start + 1] === '/';
  let index = start + (closing ? 2 : 1);
  const nameStart = index;
  while (index < xml.length && !/[\s/>]/.test(xml[index])) index += 1;
  const name = xml.slice(nameStart, index);
  let quote: string | undefined;
  for (; index < xml.length; index += 1) {
    const char = xml[index];
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '>') {
      return { name, closing, selfClosing: xml[index - 1] === '/', end: index + 1 };
    }
  }
  return { name, closing, selfClosing: false, end: xml.length };
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

export function withoutAnswerKeys(xml: string): string {
  const kept: string[] = [];
  let copiedTo = 0;
  /** The qualified name of the answer element being cut, with how deep it nests in itself. */
  let cutting: { name: string; depth: number } | undefined;
  let index = xml.indexOf('<');
  while (index >= 0) {
    const skipped = SKIPPED_MARKUP.find(([open]) => xml.startsWith(open, index));
    if (skipped) {
      const close = xml.indexOf(skipped[1], index + skipped[0].length);
      index = close < 0 ? -1 : xml.indexOf('<', close + skipped[1].length);
      continue;
    }
    const tag = tagAt(xml, index);
    if (cutting) {
      if (tag.name === cutting.name && !tag.selfClosing) cutting.depth += tag.closing ? -1 : 1;
      if (cutting.depth === 0) {
        copiedTo = tag.end;
        cutting = undefined;
      }
    } else if (!tag.closing && ANSWER_ELEMENTS.has(localName(tag.name))) {
      kept.push(xml.slice(copiedTo, index));
      copiedTo = tag.end;
      if (!tag.selfClosing) cutting = { name: tag.name, depth: 1 };
    }
    index = xml.indexOf('<', tag.end);
  }
  if (!cutting) kept.push(xml.slice(copiedTo));
  return kept.join('');
}
