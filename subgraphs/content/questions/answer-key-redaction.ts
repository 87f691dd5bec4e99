import { EntityDecoder } from '@nodable/entities';
import { markupOf } from './xml-markup.ts';

/**
 * A stored QTI item as a caller without answer-key access may read it: the elements that state or
 * score the correct answers are cut out, every other byte stays as written. The stored XML was
 * checked well-formed when its version was appended, so the markup scan (xml-markup.ts) finds every tag.
 */

/**
 * By local name, QTI 3 and QTI 2.x: the keys (declared, or set by a templated item's template processing), their score
 * maps, and the processing that can name them.
 */
const ANSWER_ELEMENTS = new Set([
  'qti-correct-response',
  'correctResponse',
  'qti-set-correct-response',
  'setCorrectResponse',
  'qti-mapping',
  'mapping',
  'qti-area-mapping',
  'areaMapping',
  'qti-response-processing',
  'responseProcessing',
]);

const RUBRIC_BLOCKS = new Set(['qti-rubric-block', 'rubricBlock']);

/**
 * The views of QTI (3.0 and 2.x) whose audience may not read answer keys: the candidate, and the proctor who
 * supervises the candidate. author, scorer, testConstructor and tutor write, grade with, assemble or explain the keys.
 */
const KEYLESS_VIEWS = new Set(['candidate', 'proctor']);

/**
 * A rubric block is answer-key material unless its view (a space-separated list, as the parser decoded it) names an
 * audience without the keys: "Full credit for B" is written for the scorer. A block naming no view shows it to no
 * keyless audience.
 */
export function isAnswerKeyRubric(view: string | null | undefined): boolean {
  return !(view ?? '').split(/[ \t\r\n]+/).some((audience) => KEYLESS_VIEWS.has(audience));
}

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** Attribute values as written, by qualified name. */
  attributes: Map<string, string>;
  end: number;
}

const NAME = /[^\s/>]*/y;
const ATTRIBUTE = /\s+([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

function tagAt(xml: string, start: number, end: number): Tag {
  const closing = xml[start + 1] === '/';
  NAME.lastIndex = start + (closing ? 2 : 1);
  const name = NAME.exec(xml)![0];
  const attributes = new Map<string, string>();
  ATTRIBUTE.lastIndex = NAME.lastIndex;
  for (let attribute; (attribute = ATTRIBUTE.exec(xml));) attributes.set(attribute[1], attribute[2] ?? attribute[3]);
  return { name, closing, selfClosing: xml[end - 2] === '/', attributes, end };
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

const references = new EntityDecoder({ numericAllowed: true });

function isAnswerElement(tag: Tag): boolean {
  const name = localName(tag.name);
  if (ANSWER_ELEMENTS.has(name)) return true;
  const view = tag.attributes.get('view');
  return RUBRIC_BLOCKS.has(name) && isAnswerKeyRubric(view === undefined ? view : references.decode(view));
}

export function withoutAnswerKeys(xml: string): string {
  const kept: string[] = [];
  let copiedTo = 0;
  /** The qualified name of the answer element being cut, with how deep it nests in itself. */
  let cutting: { name: string; depth: number } | undefined;
  for (const markup of markupOf(xml)) {
    if (markup.kind !== 'tag') continue;
    const tag = tagAt(xml, markup.start, markup.end);
    if (cutting) {
      if (tag.name === cutting.name && !tag.selfClosing) cutting.depth += tag.closing ? -1 : 1;
      if (cutting.depth === 0) {
        copiedTo = tag.end;
        cutting = undefined;
      }
    } else if (!tag.closing && isAnswerElement(tag)) {
      kept.push(xml.slice(copiedTo, markup.start));
      copiedTo = tag.end;
      if (!tag.selfClosing) cutting = { name: tag.name, depth: 1 };
    }
  }
  if (!cutting) kept.push(xml.slice(copiedTo));
  return kept.join('');
}
