import { describe, expect, it } from 'vitest';
import { withoutAnswerKeys } from './answer-key-redaction.ts';
import { projectCanonicalXml } from './canonical-xml.ts';

/** An item in one QTI dialect: its parts, and which of them state or score answers. */
interface Dialect {
  name: string;
  /** The element name of a QTI 3 kebab-case name in this dialect. */
  element: (qti3: string) => string;
  /** Its attribute name. */
  attribute: (qti3: string) => string;
  root: string;
}

const camel = (name: string) =>
  name.replace(/^qti-/, '').replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
const DIALECTS: Dialect[] = [
  {
    name: 'QTI 3, default namespace',
    element: (n) => n,
    attribute: (n) => n,
    root: 'xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"',
  },
  {
    name: 'QTI 3, prefixed',
    element: (n) => `qti:${n}`,
    attribute: (n) => n,
    root: 'xmlns:qti="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"',
  },
  { name: 'QTI 2.x', element: camel, attribute: camel, root: 'xmlns="http://www.imsglobal.org/xsd/imsqti_v2p2"' },
];

/** Builds an item whose answer parts are marked, so the expected redaction is the item without them. */
function item(dialect: Dialect, seed: number) {
  const e = dialect.element;
  const a = dialect.attribute;
  const choices = Array.from({ length: 2 + (seed % 4) }, (_, index) => `C${index}`);
  const correct = choices[seed % choices.length];
  const parts: Array<[text: string, answer: boolean]> = [];
  const add = (text: string, answer = false) => parts.push([text, answer]);
  if (seed % 2 === 0) add('\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n');
  add(
    `<${e('qti-assessment-item')} ${dialect.root} identifier="item-${seed}" title="Seed ${seed} &amp; &lt;more&gt;">\n`,
  );
  add(
    `<!-- the key: <${e('qti-correct-response')}><${e('qti-value')}>${correct}</${e('qti-value')}></${e('qti-correct-response')}> -->\n`,
  );
  add(`<${e('qti-response-declaration')} identifier="RESPONSE" cardinality="single" ${a('base-type')}="identifier">`);
  add(
    `<${e('qti-correct-response')}><${e('qti-value')}>${correct}</${e('qti-value')}></${e('qti-correct-response')}>`,
    true,
  );
  if (seed % 3 === 0)
    add(
      `<${e('qti-mapping')} ${a('default-value')}="0"><${e('qti-map-entry')} ${a('map-key')}="${correct}" ${a('mapped-value')}="1"/></${e('qti-mapping')}>`,
      true,
    );
  if (seed % 3 === 1) add(`<${e('qti-mapping')} ${a('default-value')}="0"/>`, true);
  add(`</${e('qti-response-declaration')}>\n`);
  add(`<${e('qti-outcome-declaration')} identifier="SCORE" cardinality="single" ${a('base-type')}="float"/>\n`);
  if (seed % 2 === 1) {
    // A templated item: its template processing may set the key, and otherwise stays (a player renders with it).
    add(`<${e('qti-template-declaration')} identifier="T" cardinality="single" ${a('base-type')}="integer"/>`);
    add(`<${e('qti-template-processing')}><${e('qti-set-template-value')} identifier="T">`);
    add(`<${e('qti-random-integer')} min="1" max="9"/></${e('qti-set-template-value')}>`);
    add(
      `<${e('qti-set-correct-response')} identifier="RESPONSE"><${e('qti-base-value')} ${a('base-type')}="identifier">${correct}</${e('qti-base-value')}></${e('qti-set-correct-response')}>`,
      true,
    );
    add(`</${e('qti-template-processing')}>\n`);
  }
  add(`<${e('qti-item-body')}><p data-note='say "a > b" &lt;${e('qti-correct-response')}>'>Pick one</p>`);
  // Rubric blocks by their views: only a block some keyless audience (candidate, proctor) may see stays.
  const rubric = (view: string, inner = '') =>
    `<${e('qti-rubric-block')} data-x="a > b" view="${view}"><p>Full credit for ${correct}.</p>${inner}</${e('qti-rubric-block')}>`;
  const views = ['scorer', 'tutor scorer', 'author', 'testConstructor', 'scorer&#32;tutor', '', 'Candidate'];
  add(rubric(views[seed % views.length]), true);
  add(rubric(['candidate', 'proctor', 'scorer candidate', 'tutor\tproctor', '&#99;andidate'][seed % 5]));
  add(`<${e('qti-rubric-block')} view="candidate"><p>Read carefully.</p>`);
  add(rubric('scorer', rubric('candidate')), true);
  add(`</${e('qti-rubric-block')}>`);
  add(`<!-- ${rubric('scorer')} --><![CDATA[${rubric('tutor')}]]>`);
  add(`<![CDATA[<${e('qti-response-processing')}/> stays text]]>`);
  add(`<${e('qti-choice-interaction')} ${a('response-identifier')}="RESPONSE" ${a('max-choices')}="1">`);
  for (const choice of choices)
    add(`<${e('qti-simple-choice')} identifier="${choice}">Choice ${choice} ü</${e('qti-simple-choice')}>`);
  add(`</${e('qti-choice-interaction')}></${e('qti-item-body')}>\n`);
  add(`<?renderer hint="${e('qti-mapping')} > none"?>\n`);
  if (seed % 2 === 0)
    add(
      `<${e('qti-response-processing')} template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct"/>`,
      true,
    );
  else
    add(
      `<${e('qti-response-processing')}><${e('qti-response-condition')}><${e('qti-response-if')}><${e('qti-match')}>` +
        `<${e('qti-variable')} identifier="RESPONSE"/><${e('qti-base-value')} ${a('base-type')}="identifier">${correct}</${e('qti-base-value')}>` +
        `</${e('qti-match')}></${e('qti-response-if')}></${e('qti-response-condition')}></${e('qti-response-processing')}>`,
      true,
    );
  add(
    `\n<${e('qti-modal-feedback')} identifier="fb" ${a('outcome-identifier')}="FEEDBACK" ${a('show-hide')}="show">Well done</${e('qti-modal-feedback')}>\n`,
  );
  add(`</${e('qti-assessment-item')}>\n`);
  return {
    whole: parts.map(([text]) => text).join(''),
    redacted: parts.map(([text, answer]) => (answer ? '' : text)).join(''),
  };
}

describe('withoutAnswerKeys', () => {
  for (const dialect of DIALECTS) {
    it(`cuts only the answer elements of generated ${dialect.name} items, byte for byte elsewhere`, () => {
      for (let seed = 0; seed < 24; seed += 1) {
        const { whole, redacted } = item(dialect, seed);
        // Both are items the service stores: well-formed, with their interaction intact.
        expect(projectCanonicalXml(whole).answer_slots[0].correct_values).toEqual([expect.any(String)]);
        expect(withoutAnswerKeys(whole)).toBe(redacted);
        expect(projectCanonicalXml(redacted).answer_slots[0].correct_values).toBeNull();
      }
    });
  }

  it('leaves an item without answer elements as it is', () => {
    const xml =
      '<qti-assessment-item identifier="x"><qti-item-body><p>Read this.</p></qti-item-body></qti-assessment-item>';
    expect(withoutAnswerKeys(xml)).toBe(xml);
  });
});
