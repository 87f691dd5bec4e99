import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../platform/errors.ts';
import { projectCanonicalXml } from './canonical-xml.ts';

/** A QTI 3 item as authoring tools write it; `prompt` and the choice texts are the parts the tests vary. */
function qti3Item({ prompt = 'Pick one', a = 'a', b = 'b' } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqti_v3p0" identifier="item-1" title="Item">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
    <qti-correct-response><qti-value>A</qti-value></qti-correct-response>
  </qti-response-declaration>
  <qti-item-body>
    <qti-choice-interaction response-identifier="RESPONSE" max-choices="1">
      <qti-prompt>${prompt}</qti-prompt>
      <qti-simple-choice identifier="A">${a}</qti-simple-choice>
      <qti-simple-choice identifier="B">${b}</qti-simple-choice>
    </qti-choice-interaction>
  </qti-item-body>
</qti-assessment-item>`;
}

describe('projectCanonicalXml', () => {
  it('decodes numeric character references as XML defines them, in text and attributes', () => {
    const projection = projectCanonicalXml(
      qti3Item({ a: 'r&#xB2; &#960; &amp; &lt;x&gt;', b: 'it&#8217;s' }).replace('title="Item"', 'title="Caf&#233;"'),
    );
    expect(projection.answer_slots[0].choices).toEqual([
      { identifier: 'A', text: 'r\u00b2 \u03c0 & <x>' },
      { identifier: 'B', text: 'it\u2019s' },
    ]);
    expect(projection.components[0].text).toBe('Caf\u00e9');
  });

  it('accepts the text <!DOCTYPE in CDATA and comments, where it is no declaration', () => {
    const xml = qti3Item({ prompt: 'What does <![CDATA[<!DOCTYPE html>]]> declare?' }).replace(
      '<qti-item-body>',
      '<qti-item-body><!-- not a <!DOCTYPE x> either -->',
    );
    expect(projectCanonicalXml(xml).answer_slots[0].choices).toHaveLength(2);
  });

  it('refuses a DOCTYPE however it is written', () => {
    for (const doctype of ['<!DOCTYPE qti-assessment-item>', '<!DOCTYPE x [<!ENTITY a "b">]>']) {
      expect(() => projectCanonicalXml(`${doctype}\n${qti3Item()}`)).toThrow(DomainError);
    }
  });
});
