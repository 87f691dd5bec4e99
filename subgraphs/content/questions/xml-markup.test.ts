import { describe, expect, it } from 'vitest';
import { markupOf } from './xml-markup.ts';

const kinds = (xml: string) => [...markupOf(xml)].map(({ kind, start, end }) => [kind, xml.slice(start, end)]);

describe('markupOf', () => {
  it('ends each construct where XML ends it, whatever quotes or look-alike markup it holds', () => {
    expect(kinds(`<a x="1 > 0" y='"'>t<?pi it's "a<b" ?><!-- <b x="> --><![CDATA[<c>"]]>u</a >`)).toEqual([
      ['tag', `<a x="1 > 0" y='"'>`],
      ['text', 't'],
      ['instruction', `<?pi it's "a<b" ?>`],
      ['comment', '<!-- <b x="> -->'],
      ['cdata', '<![CDATA[<c>"]]>'],
      ['text', 'u'],
      ['tag', '</a >'],
    ]);
  });
});
