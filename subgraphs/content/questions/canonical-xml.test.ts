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

  it('refuses a named reference XML does not define, and keeps an escaped one as text', () => {
    for (const xml of [
      qti3Item({ a: 'A&nbsp;1' }),
      qti3Item({ prompt: '&copy; 2024' }),
      qti3Item().replace('title="Item"', 'title="A&eacute;"'),
    ]) {
      expect(() => projectCanonicalXml(xml)).toThrow(
        expect.objectContaining({
          code: 'validation_failed',
          fieldErrors: [expect.objectContaining({ message: expect.stringMatching(/is not an XML entity/) })],
        }),
      );
    }
    const escaped = projectCanonicalXml(
      qti3Item({ a: 'A&amp;nbsp;1', b: 'B&#160;2 <![CDATA[&nbsp;]]>' }).replace(
        '<qti-item-body>',
        '<qti-item-body><!-- &nbsp; -->',
      ),
    );
    expect(escaped.answer_slots[0].choices).toEqual([
      { identifier: 'A', text: 'A&nbsp;1' },
      { identifier: 'B', text: 'B\u00a02 &nbsp;' },
    ]);
  });

  it('refuses a DOCTYPE however it is written', () => {
    for (const doctype of ['<!DOCTYPE qti-assessment-item>', '<!DOCTYPE x [<!ENTITY a "b">]>']) {
      expect(() => projectCanonicalXml(`${doctype}\n${qti3Item()}`)).toThrow(DomainError);
    }
  });

  it('a match item names as distractors only the choices no correct pair uses', () => {
    const projection =
      projectCanonicalXml(`<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqti_v3p0" identifier="match" title="Match">
  <qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="directedPair">
    <qti-correct-response><qti-value>C R</qti-value><qti-value>D M</qti-value></qti-correct-response>
  </qti-response-declaration>
  <qti-item-body>
    <qti-match-interaction response-identifier="RESPONSE" max-associations="3">
      <qti-simple-match-set>
        <qti-simple-associable-choice identifier="C" match-max="1">Capulet</qti-simple-associable-choice>
        <qti-simple-associable-choice identifier="D" match-max="1">Demetrius</qti-simple-associable-choice>
        <qti-simple-associable-choice identifier="P" match-max="1">Prospero</qti-simple-associable-choice>
      </qti-simple-match-set>
      <qti-simple-match-set>
        <qti-simple-associable-choice identifier="M" match-max="2">A Midsummer Night's Dream</qti-simple-associable-choice>
        <qti-simple-associable-choice identifier="R" match-max="2">Romeo and Juliet</qti-simple-associable-choice>
      </qti-simple-match-set>
    </qti-match-interaction>
  </qti-item-body>
</qti-assessment-item>`);
    expect(projection.answer_slots[0]).toMatchObject({ interaction_type: 'match', correct_values: ['C R', 'D M'] });
    expect(projection.components.filter((component) => component.component_role === 'distractor')).toEqual([
      {
        ordinal: 2,
        component_role: 'distractor',
        identifier: 'P',
        parent_identifier: 'RESPONSE',
        text: 'Prospero',
        view: null,
      },
    ]);
  });

  it('projects the choices of hottext and gap-match interactions, which are QTI choices without Choice in their names', () => {
    const item = (
      body: string,
      key: string,
    ) => `<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqti_v3p0" identifier="i" title="I">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="${key.includes(' ') ? 'directedPair' : 'identifier'}">
    <qti-correct-response><qti-value>${key}</qti-value></qti-correct-response>
  </qti-response-declaration>
  <qti-item-body>${body}</qti-item-body>
</qti-assessment-item>`;
    const hottext = projectCanonicalXml(
      item(
        `<qti-hottext-interaction response-identifier="RESPONSE" max-choices="1"><p>Sponsors of the
        <qti-hottext identifier="H1">Lancastrians</qti-hottext> and the <qti-hottext identifier="H2">Yorkists</qti-hottext></p></qti-hottext-interaction>`,
        'H2',
      ),
    );
    expect(hottext.answer_slots[0].choices).toEqual([
      { identifier: 'H1', text: 'Lancastrians' },
      { identifier: 'H2', text: 'Yorkists' },
    ]);
    expect(hottext.components.map((component) => [component.component_role, component.identifier])).toEqual([
      ['question', 'i'],
      ['distractor', 'H1'],
    ]);
    expect(() =>
      projectCanonicalXml(
        item(
          '<qti-hottext-interaction response-identifier="RESPONSE"><p><qti-hottext identifier="H1">a</qti-hottext></p></qti-hottext-interaction>',
          'H9',
        ),
      ),
    ).toThrow(DomainError);
    const gapMatch = projectCanonicalXml(
      item(
        `<qti-gap-match-interaction response-identifier="RESPONSE"><qti-gap-text identifier="W" match-max="1">winter</qti-gap-text>
        <qti-gap-text identifier="S" match-max="1">summer</qti-gap-text><p>Now is the <qti-gap identifier="G1"/> of our discontent</p></qti-gap-match-interaction>`,
        'W G1',
      ),
    );
    expect(gapMatch.answer_slots[0].choices.map((choice) => choice.identifier)).toEqual(['W', 'S', 'G1']);
    expect(gapMatch.components.filter((component) => component.component_role === 'distractor')).toMatchObject([
      { identifier: 'S', text: 'summer' },
    ]);
  });
});
