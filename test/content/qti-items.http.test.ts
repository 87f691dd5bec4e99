import { describe, expect } from 'vitest';
import { http, newTenant, tenantRoot, type Caller, type TestPlatform } from '../kit.ts';
import { platformTest } from '../platform-test.ts';
import { createItem, expectUnchanged } from './helpers.ts';

const it = platformTest();

const QTI3_NAMESPACE = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';
const MATCH_CORRECT = 'https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct';

/** One interaction of QTI 3's common types: its response declaration's shape, key and body. */
interface Interaction {
  type: string;
  cardinality: string;
  baseType: string;
  key: string[];
  body: string;
}

const INTERACTIONS: Interaction[] = [
  {
    type: 'choice',
    cardinality: 'single',
    baseType: 'identifier',
    key: ['B'],
    body: `<qti-choice-interaction response-identifier="RESPONSE" max-choices="1">
      <qti-prompt>Which is water?</qti-prompt>
      <qti-simple-choice identifier="A">CO<sub>2</sub></qti-simple-choice>
      <qti-simple-choice identifier="B">H<sub>2</sub>O</qti-simple-choice>
    </qti-choice-interaction>`,
  },
  {
    type: 'text_entry',
    cardinality: 'single',
    baseType: 'string',
    key: ['York'],
    body: `<p>The city on the Ouse is <qti-text-entry-interaction response-identifier="RESPONSE" expected-length="8"/>.</p>`,
  },
  {
    type: 'extended_text',
    cardinality: 'single',
    baseType: 'string',
    key: [],
    body: `<qti-extended-text-interaction response-identifier="RESPONSE" expected-lines="5"><qti-prompt>Explain.</qti-prompt></qti-extended-text-interaction>`,
  },
  {
    type: 'order',
    cardinality: 'ordered',
    baseType: 'identifier',
    key: ['S', 'M', 'L'],
    body: `<qti-order-interaction response-identifier="RESPONSE">
      <qti-simple-choice identifier="L">large</qti-simple-choice>
      <qti-simple-choice identifier="S">small</qti-simple-choice>
      <qti-simple-choice identifier="M">medium</qti-simple-choice>
    </qti-order-interaction>`,
  },
  {
    type: 'match',
    cardinality: 'multiple',
    baseType: 'directedPair',
    key: ['C R'],
    body: `<qti-match-interaction response-identifier="RESPONSE" max-associations="1">
      <qti-simple-match-set><qti-simple-associable-choice identifier="C" match-max="1">Capulet</qti-simple-associable-choice></qti-simple-match-set>
      <qti-simple-match-set><qti-simple-associable-choice identifier="R" match-max="1">Romeo and Juliet</qti-simple-associable-choice></qti-simple-match-set>
    </qti-match-interaction>`,
  },
  {
    type: 'associate',
    cardinality: 'multiple',
    baseType: 'pair',
    key: ['A P'],
    body: `<qti-associate-interaction response-identifier="RESPONSE" max-associations="1">
      <qti-simple-associable-choice identifier="A" match-max="1">Antonio</qti-simple-associable-choice>
      <qti-simple-associable-choice identifier="P" match-max="1">Prospero</qti-simple-associable-choice>
    </qti-associate-interaction>`,
  },
  {
    type: 'gap_match',
    cardinality: 'multiple',
    baseType: 'directedPair',
    key: ['W G1'],
    body: `<qti-gap-match-interaction response-identifier="RESPONSE">
      <qti-gap-text identifier="W" match-max="1">winter</qti-gap-text>
      <p>Now is the <qti-gap identifier="G1"/> of our discontent.</p>
    </qti-gap-match-interaction>`,
  },
  {
    type: 'inline_choice',
    cardinality: 'single',
    baseType: 'identifier',
    key: ['Y'],
    body: `<p>Pick <qti-inline-choice-interaction response-identifier="RESPONSE"><qti-inline-choice identifier="Y">York</qti-inline-choice><qti-inline-choice identifier="L">Leeds</qti-inline-choice></qti-inline-choice-interaction>.</p>`,
  },
  {
    type: 'hotspot',
    cardinality: 'single',
    baseType: 'identifier',
    key: ['H1'],
    body: `<qti-hotspot-interaction response-identifier="RESPONSE" max-choices="1">
      <object type="image/png" data="map.png" width="100" height="100"/>
      <qti-hotspot-choice identifier="H1" shape="circle" coords="10,10,5"/>
      <qti-hotspot-choice identifier="H2" shape="rect" coords="50,50,60,60"/>
    </qti-hotspot-interaction>`,
  },
  {
    type: 'slider',
    cardinality: 'single',
    baseType: 'integer',
    key: ['7'],
    body: `<qti-slider-interaction response-identifier="RESPONSE" lower-bound="0" upper-bound="10" step="1"/>`,
  },
];

/**
 * A QTI 3.0 assessment item with one interaction, in the default namespace or under a prefix, with an XML
 * declaration naming its encoding, a BOM, a comment, a processing instruction, CDATA and a response processing
 * template, as authoring tools and exports write them.
 */
function qtiItem(interaction: Interaction, { prefix = '', bom = false } = {}): string {
  const namespace = prefix ? `xmlns:${prefix.slice(0, -1)}="${QTI3_NAMESPACE}"` : `xmlns="${QTI3_NAMESPACE}"`;
  const body = interaction.body.replace(/<(\/?)qti-/g, `<$1${prefix}qti-`);
  const values = interaction.key.map((value) => `<${prefix}qti-value><![CDATA[${value}]]></${prefix}qti-value>`);
  const key =
    values.length > 0 ? `<${prefix}qti-correct-response>${values.join('')}</${prefix}qti-correct-response>` : '';
  return `${bom ? '\uFEFF' : ''}<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<?xml-stylesheet type="text/xsl" href="render.xsl"?>
<!-- exported by an authoring tool -->
<${prefix}qti-assessment-item ${namespace} identifier="item-${interaction.type}" title="A ${interaction.type} item" adaptive="false" time-dependent="false" xml:lang="en">
  <${prefix}qti-response-declaration identifier="RESPONSE" cardinality="${interaction.cardinality}" base-type="${interaction.baseType}">${key}</${prefix}qti-response-declaration>
  <${prefix}qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <${prefix}qti-item-body>
    <?renderer hint="none"?>
    ${body}
  </${prefix}qti-item-body>
  <${prefix}qti-response-processing template="${MATCH_CORRECT}"/>
</${prefix}qti-assessment-item>
`;
}

async function appendXml(platform: TestPlatform, caller: Caller, contentId: string, xml: string) {
  return http(platform, 'POST', `${tenantRoot(caller.tenantId)}/items/${contentId}/versions`, {
    token: caller.token,
    body: { canonical_xml: xml },
  });
}

describe('canonical_xml of QTI 3.0 items', () => {
  it('accepts every common interaction type however the item is written, and stores its bytes unchanged', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const question = await createItem(platform, caller, { content_kind: 'question' });
    for (const interaction of INTERACTIONS) {
      for (const options of [{}, { prefix: 'qti:', bom: true }]) {
        const xml = qtiItem(interaction, options);
        const appended = await appendXml(platform, caller, question.content_id, xml);
        const label = `${interaction.type} ${JSON.stringify(options)}`;
        expect([appended.status, appended.body.code], label).toEqual([201, undefined]);
        expect(appended.body.canonical_xml, label).toBe(xml);
        const versionId = appended.body.version_id as string;
        const read = await http(platform, 'GET', `${root}/items/${question.content_id}/versions/${versionId}`, {
          token: caller.token,
        });
        expect(read.body.canonical_xml, label).toBe(xml);
        const slots = await http(
          platform,
          'GET',
          `${root}/items/${question.content_id}/answer-slots?version_id=${versionId}&includeAnswerKeys=true`,
          { token: caller.token },
        );
        expect(slots.body.data, label).toMatchObject([
          {
            response_identifier: 'RESPONSE',
            interaction_type: interaction.type,
            qti_cardinality: interaction.cardinality,
            qti_base_type: interaction.baseType,
            correct_response: interaction.key.length > 0 ? { values: interaction.key } : null,
          },
        ]);
        const plan = await http(
          platform,
          'GET',
          `${root}/items/${question.content_id}/scoring-plan?version_id=${versionId}`,
          { token: caller.token },
        );
        expect(plan.body.data.at(-1), label).toMatchObject({ scoring_rule_scope: 'template', template: MATCH_CORRECT });
      }
    }
  });

  it('reads a choice as its text shows: inline markup runs on, paragraphs and comments as written', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const root = tenantRoot(caller.tenantId);
    const question = await createItem(platform, caller, { content_kind: 'question' });
    const xml = qtiItem({
      ...INTERACTIONS[0],
      body: `<qti-choice-interaction response-identifier="RESPONSE" max-choices="1">
        <qti-simple-choice identifier="A">CO<sub>2</sub></qti-simple-choice>
        <qti-simple-choice identifier="B">H<sub>2</sub>O</qti-simple-choice>
        <qti-simple-choice identifier="C">x<sup>2</sup> + <em>y</em>, <strong>not</strong> z</qti-simple-choice>
        <qti-simple-choice identifier="D"><p>First.</p><p>Second.</p></qti-simple-choice>
        <qti-simple-choice identifier="E">to<!-- a note -->gether and <![CDATA[a<b]]>c</qti-simple-choice>
      </qti-choice-interaction>`,
    });
    const appended = await appendXml(platform, caller, question.content_id, xml);
    expect(appended.status).toBe(201);
    const view = await http(platform, 'GET', `${root}/items/${question.content_id}/student-view`, {
      token: caller.token,
    });
    expect(view.body.answer_slots[0].choices).toEqual([
      { identifier: 'A', text: 'CO2' },
      { identifier: 'B', text: 'H2O' },
      { identifier: 'C', text: 'x2 + y, not z' },
      { identifier: 'D', text: 'First. Second.' },
      { identifier: 'E', text: 'together and a<bc' },
    ]);
  });

  it('refuses bytes that are not well-formed XML with a problem naming what is wrong, storing nothing', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const question = await createItem(platform, caller, { content_kind: 'question' });
    const item = qtiItem(INTERACTIONS[0]);
    const malformed: Array<[string, string, RegExp]> = [
      ['a raw < in an attribute', item.replace('title="A choice item"', 'title="1 < 2"'), /raw </],
      ['a bare & in an attribute', item.replace('title="A choice item"', 'title="salt & pepper"'), /&amp;/],
      ['a reference to U+0000', item.replace('CO<sub>', 'C&#0;O<sub>'), /&#0;/],
      ['a reference to U+0001', item.replace('Which is water?', 'Which&#x1; is water?'), /&#x1;/],
      ['a reference to a surrogate', item.replace('Which is water?', 'Which&#xD800; is water?'), /&#xD800;/],
      ['a reference past U+10FFFF', item.replace('Which is water?', 'Which&#x110000; is water?'), /&#x110000;/],
      ['a raw control character', item.replace('Which is water?', 'Which\u0001 is water?'), /U\+0001/],
      ['-- in a comment', item.replace('exported by an authoring tool', 'exported -- by a tool'), /comment/],
      ['an XML declaration inside', item.replace('<?renderer hint="none"?>', '<?xml version="1.0"?>'), /declaration/],
      ['an undeclared element prefix', item.replace('Which is water?', 'Which is <m:mi>water</m:mi>?'), /m:mi/],
      [
        'an undeclared attribute prefix',
        item.replace('xml:lang="en"', 'xsi:schemaLocation="a b"'),
        /xsi:schemaLocation/,
      ],
      ['a mismatched end tag', item.replace('</qti-item-body>', '</qti-itembody>'), /closing tag/],
      [']]> in text', item.replace('Which is water?', 'Which is water? ]]>'), /\]\]&gt;/],
    ];
    for (const [label, xml, problem] of malformed) {
      await expectUnchanged(platform, caller, `/items/${question.content_id}/versions`, async () => {
        const refused = await appendXml(platform, caller, question.content_id, xml);
        expect([refused.status, refused.body.code], label).toEqual([400, 'content.validation_failed']);
        expect(refused.body.fieldErrors, label).toEqual([
          { field: 'canonical_xml', message: expect.stringMatching(problem) },
        ]);
      });
    }
  });

  it('stores ]]> where XML allows it: in an attribute value, a comment, a processing instruction, escaped in text, and split by markup', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const question = await createItem(platform, caller, { content_kind: 'question' });
    const xml = qtiItem(INTERACTIONS[0])
      .replace('title="A choice item"', 'title="a]]>b"')
      .replace('exported by an authoring tool', 'exported ]]> by a tool')
      .replace('<?renderer hint="none"?>', '<?renderer hint="]]>"?>')
      .replace('Which is water?', 'Which is water? ]]&gt; ]]<!-- two runs of text -->>');
    const appended = await appendXml(platform, caller, question.content_id, xml);
    expect([appended.status, appended.body.canonical_xml]).toEqual([201, xml]);
  });
});

describe('processing instructions, comments and CDATA', () => {
  it('stores them byte for byte when they hold < or a bare &, which XML allows there', async ({ platform }) => {
    const caller = await newTenant(platform);
    const question = await createItem(platform, caller, { content_kind: 'question' });
    const item = qtiItem(INTERACTIONS[0]);
    for (const xml of [
      item.replace('<?renderer hint="none"?>', '<?renderer hint="a<b" x="&"?>'),
      item.replace('<?xml-stylesheet type="text/xsl" href="render.xsl"?>', '<?xml-stylesheet href="r.xsl?a=1&b=<2>"?>'),
      item.replace('<?renderer hint="none"?>', '<?renderer a < b && c?>'),
      // A PI ends at its first ?>, whatever quotes its data holds (the parser's patch).
      item.replace('<?renderer hint="none"?>', '<?renderer it\'s "a" ?>'),
      item.replace('exported by an authoring tool', 'a<b & c'),
      item.replace('Which is water?', 'Which is <![CDATA[a<b&c]]>?'),
    ]) {
      const appended = await appendXml(platform, caller, question.content_id, xml);
      expect([appended.status, appended.body.code, appended.body.canonical_xml]).toEqual([201, undefined, xml]);
    }
  });
});
