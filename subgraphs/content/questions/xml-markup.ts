/**
 * The one scan of a QTI item's XML text that the write-time checks (canonical-xml.ts) and the read-time answer-key
 * redaction share. It follows XML's own ends: a comment ends at the first -->, CDATA at ]]>, a processing
 * instruction at ?> (whatever quotes it holds), a DOCTYPE at its > (one is refused), a tag at the first > outside
 * its quoted attribute values; character data is what lies between. Bytes that are not well-formed read as some
 * markup all the same, so callers scan only what the parser's validator passed or what was stored.
 */

export interface Markup {
  kind: 'text' | 'comment' | 'cdata' | 'instruction' | 'doctype' | 'tag';
  start: number;
  end: number;
}

const DELIMITED: Array<[kind: Markup['kind'], open: string, close: string]> = [
  ['comment', '<!--', '-->'],
  ['cdata', '<![CDATA[', ']]>'],
  ['instruction', '<?', '?>'],
  ['doctype', '<!', '>'],
];

const TAG = /<(?:"[^"]*"|'[^']*'|[^'">])*>?/y;

export function* markupOf(xml: string): Generator<Markup> {
  for (let start = 0; start < xml.length;) {
    const open = xml.indexOf('<', start);
    if (open !== start) {
      const end = open < 0 ? xml.length : open;
      yield { kind: 'text', start, end };
      start = end;
      continue;
    }
    const delimited = DELIMITED.find(([, opener]) => xml.startsWith(opener, start));
    let end: number;
    if (delimited) {
      const [, opener, close] = delimited;
      const closeAt = xml.indexOf(close, start + opener.length);
      end = closeAt < 0 ? xml.length : closeAt + close.length;
    } else {
      TAG.lastIndex = start;
      TAG.exec(xml);
      end = TAG.lastIndex;
    }
    yield { kind: delimited?.[0] ?? 'tag', start, end };
    start = end;
  }
}
