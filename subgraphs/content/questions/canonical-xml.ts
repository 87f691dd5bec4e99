import { EntityDecoder } from '@nodable/entities';
import { XMLParser, XMLValidator, type EntityDecoderOptions } from 'fast-xml-parser';
import { DomainError, type FieldError } from '../../../platform/errors.ts';
import { QTI_BASE_TYPES, QTI_CARDINALITIES } from '../vocabulary.ts';
import { markupOf } from './xml-markup.ts';

/**
 * canonical_xml of a question version (a QTI 3 or QTI 2.x assessment item) parsed with a real XML
 * parser into the version's projections: answer slots, answer keys, assessment components and
 * the scoring plan. Pure: no database, no clock. Anything it cannot project is refused, so a
 * stored version always has the projections its bytes imply.
 */

interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

export interface AnswerSlotProjection {
  response_identifier: string;
  ordinal: number;
  interaction_type: string;
  qti_cardinality: string;
  qti_base_type: string | null;
  choices: Array<{ identifier: string; text: string }>;
  correct_values: string[] | null;
}

export interface ComponentProjection {
  ordinal: number;
  component_role: 'question' | 'distractor' | 'rubric' | 'preauthored_feedback';
  identifier: string;
  parent_identifier: string | null;
  text: string | null;
  /** A rubric block's QTI view list (who it is written for); null on other components. */
  view: string | null;
}

export interface ScoringProjection {
  ordinal: number;
  scoring_rule_scope: 'response' | 'outcome' | 'template' | 'expression';
  identifier: string;
  qti_cardinality: string | null;
  qti_base_type: string | null;
  template: string | null;
}

export interface QuestionProjection {
  item_identifier: string;
  answer_slots: AnswerSlotProjection[];
  components: ComponentProjection[];
  scoring: ScoringProjection[];
}

/**
 * The parser's entity decoder: XML's five entities and its character references (&#960; &#x3C0;), as every XML
 * parser decodes them (the parser's default decoder leaves character references as written). The parser hands it
 * the entities of a DOCTYPE, and only of a DOCTYPE (even one declaring none), so it also tells whether the document
 * had one: a DOCTYPE is refused, and its entities are never expanded. It sees every attribute value and every text
 * outside CDATA as written (not a processing instruction's data, see the parser's tagFilter), so it also finds the references and characters there that make the bytes not
 * well-formed, which the parser's validator lets through.
 */
class ItemEntities implements EntityDecoderOptions {
  private readonly xml = new EntityDecoder({ numericAllowed: true });
  doctype = false;
  /** The first reference or character that makes the document not well-formed, said as a fix. */
  malformed: string | undefined;
  setExternalEntities(): void {}
  addInputEntities(): void {
    this.doctype = true;
  }
  reset(): void {
    this.doctype = false;
    this.malformed = undefined;
    this.xml.reset();
  }
  decode(text: string): string {
    this.malformed ??= malformedReference(text);
    return this.xml.decode(text);
  }
  setXmlVersion(version: number): void {
    this.xml.setXmlVersion(version);
  }
}

const XML_ENTITIES = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
const REFERENCE_OR_AMPERSAND = /&(?:([A-Za-z_:][\w.:-]*);|#([0-9]+);|#x([0-9A-Fa-f]+);)?/g;

/** XML 1.0's Char production: what a document, and a character reference, may hold. */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** Text or an attribute value as written: a reference XML does not define or allow, a bare & or a raw <. */
function malformedReference(text: string): string | undefined {
  // Text ends at a tag, so only an attribute value can hold a raw <.
  if (text.includes('<')) return 'an attribute value holds a raw <: write &lt;';
  for (const [reference, name, decimal, hex] of text.matchAll(REFERENCE_OR_AMPERSAND)) {
    if (name !== undefined) {
      if (!XML_ENTITIES.has(name))
        return `&${name}; is not an XML entity: write the character, or a reference such as &#160;`;
    } else if (decimal !== undefined || hex !== undefined) {
      if (!isXmlChar(decimal !== undefined ? Number(decimal) : Number.parseInt(hex, 16)))
        return `${reference} is not a character XML allows`;
    } else {
      return 'an & that starts no reference: write &amp;';
    }
  }
  return undefined;
}

/** A character outside XML's Char production written as itself (a control character such as U+0001). */
const RAW_NON_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** What the parser's validator lets through that XML forbids in a whole document. */
function malformedDocument(xml: string): string | undefined {
  const character = RAW_NON_CHAR.exec(xml);
  if (character) {
    const code = character[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return `U+${code} is not a character XML allows: leave it out`;
  }
  const declarationAt = xml.startsWith('\uFEFF') ? 1 : 0;
  for (const { kind, start, end } of markupOf(xml)) {
    const written = xml.slice(start, end);
    if (kind === 'comment') {
      const comment = written.slice('<!--'.length, -'-->'.length);
      if (comment.includes('--') || comment.endsWith('-'))
        return 'a comment holds -- or ends with -, which XML does not allow';
    } else if (kind === 'instruction') {
      const target = written.slice('<?'.length).split(/[\s?]/, 1)[0];
      if (target.toLowerCase() === 'xml' && start !== declarationAt)
        return 'the XML declaration may only open the document';
    } else if (kind === 'text' && written.includes(']]>')) {
      return 'text holds ]]>, which XML does not allow: write ]]&gt;';
    }
  }
  return undefined;
}

const entities = new ItemEntities();

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  // Text keeps its white space, so 'x<sup>2</sup>' and 'the <hottext>' read as written (see textOf).
  trimValues: false,
  // A processing instruction's pseudo-attributes are its data, not attributes: XML lets them hold < and &.
  processEntities: { enabled: true, tagFilter: (tagName) => !tagName.startsWith('?') },
  entityDecoder: entities,
});

/** qti-simple-choice and simpleChoice are the same element: QTI 3 kebab names become QTI 2 camel names. */
function normalName(name: string): string {
  const bare = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
  if (!bare.startsWith('qti-')) return bare;
  return bare.slice(4).replace(/-([a-z])/g, (_m, letter: string) => letter.toUpperCase());
}

function normalAttr(name: string): string {
  return name.replace(/-([a-z])/g, (_m, letter: string) => letter.toUpperCase());
}

/**
 * The first element or attribute prefix no xmlns:prefix declaration in scope binds (Namespaces in XML): such bytes
 * are not namespace-well-formed, and their elements would otherwise be read as QTI's by their local names.
 */
function unboundPrefix(nodes: Array<Record<string, unknown>>, bound: ReadonlySet<string>): string | undefined {
  for (const node of nodes) {
    const name = Object.keys(node).find((key) => key !== ':@');
    if (!name || name.startsWith('?') || name === '#text') continue;
    const attrs = Object.keys((node[':@'] as Record<string, string> | undefined) ?? {});
    const declared = attrs.filter((key) => key.startsWith('xmlns:')).map((key) => key.slice('xmlns:'.length));
    const inScope = declared.length > 0 ? new Set([...bound, ...declared]) : bound;
    for (const qualified of [name, ...attrs.filter((key) => !key.startsWith('xmlns:'))]) {
      const colon = qualified.indexOf(':');
      if (colon > 0 && !inScope.has(qualified.slice(0, colon))) return qualified;
    }
    const inner = unboundPrefix((node[name] as Array<Record<string, unknown>>) ?? [], inScope);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** The one prefix bound without a declaration. */
const XML_PREFIX = new Set(['xml']);

function toTree(nodes: Array<Record<string, unknown>>): XmlNode[] {
  const tree: XmlNode[] = [];
  for (const node of nodes) {
    const name = Object.keys(node).find((key) => key !== ':@');
    if (!name || name.startsWith('?')) continue;
    if (name === '#text') {
      tree.push({ name: '#text', attrs: {}, children: [], text: String(node[name]) });
      continue;
    }
    const attrs = Object.fromEntries(
      Object.entries((node[':@'] as Record<string, string> | undefined) ?? {}).map(([key, value]) => [
        normalAttr(key),
        String(value).trim(),
      ]),
    );
    const children = toTree((node[name] as Array<Record<string, unknown>>) ?? []);
    tree.push({ name: normalName(name), attrs, children, text: '' });
  }
  return tree;
}

/** Phrasing elements of (X)HTML: their text runs on in the text around them, with no space between. */
const INLINE = new Set(
  'a abbr acronym b bdi bdo big cite code data del dfn em i ins kbd mark q rb rp rt rtc ruby s samp small span strong sub sup time tt u var wbr'.split(
    ' ',
  ),
);

/** The text an element shows: H<sub>2</sub>O is H2O, while paragraphs and QTI's elements stay words apart. */
function textOf(node: XmlNode): string {
  // XML's white space only (its S production): a no-break space (&#160;) is text an author chose.
  return writtenText(node)
    .replace(/[ \t\r\n]+/g, ' ')
    .replace(/^ | $/g, '');
}

function writtenText(node: XmlNode): string {
  if (node.name === '#text') return node.text;
  const text = node.children.map(writtenText).join('');
  return INLINE.has(node.name) ? text : ` ${text} `;
}

function* walk(node: XmlNode): Generator<XmlNode> {
  yield node;
  for (const child of node.children) yield* walk(child);
}

const FEEDBACK = new Set(['feedbackBlock', 'feedbackInline', 'modalFeedback']);

/** The choices of QTI's information model (its Choice class), not all of which end in Choice. */
const CHOICES = new Set([
  'simpleChoice',
  'simpleAssociableChoice',
  'inlineChoice',
  'hotspotChoice',
  'associableHotspot',
  'hottext',
  'gapText',
  'gapImg',
  'gap',
]);

function refuse(errors: FieldError[]): never {
  throw new DomainError('validation_failed', 'canonical_xml cannot be projected into answer slots and scoring.', {
    fieldErrors: errors,
  });
}

const field = (message: string): FieldError => ({ field: 'canonical_xml', message });

export function projectCanonicalXml(xml: string): QuestionProjection {
  try {
    return project(xml);
  } catch (error) {
    // Whatever the parser chokes on (depth, entities) is the client's bytes, never a server fault.
    if (error instanceof DomainError) throw error;
    return refuse([field('the XML cannot be parsed')]);
  }
}

function project(xml: string): QuestionProjection {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) refuse([field(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`)]);
  const parsed = parser.parse(xml) as Array<Record<string, unknown>>;
  // Known from the parser, not from the text: "<!DOCTYPE" inside CDATA or a comment declares nothing.
  if (entities.doctype) refuse([field('a DOCTYPE is not accepted')]);
  const malformed = entities.malformed ?? malformedDocument(xml);
  if (malformed !== undefined) refuse([field(`not well-formed XML: ${malformed}`)]);
  const unbound = unboundPrefix(parsed, XML_PREFIX);
  if (unbound !== undefined)
    refuse([field(`not well-formed XML: the prefix of ${unbound} is not declared (xmlns:...)`)]);
  const roots = toTree(parsed).filter((node) => node.name !== '#text');
  const item = roots.length === 1 && roots[0].name === 'assessmentItem' ? roots[0] : undefined;
  if (!item) refuse([field('the root element must be one qti-assessment-item (or assessmentItem)')]);
  const errors: FieldError[] = [];
  const itemIdentifier = item.attrs.identifier;
  if (!itemIdentifier) errors.push(field('the assessment item needs an identifier'));

  const declarations = new Map<string, { cardinality: string; baseType: string | null; correct: string[] | null }>();
  const scoring: ScoringProjection[] = [];
  for (const child of item.children) {
    if (child.name !== 'responseDeclaration' && child.name !== 'outcomeDeclaration') continue;
    const identifier = child.attrs.identifier;
    const cardinality = child.attrs.cardinality;
    const baseType = child.attrs.baseType ?? null;
    if (!identifier) errors.push(field(`a ${child.name} needs an identifier`));
    if (!(QTI_CARDINALITIES as readonly string[]).includes(cardinality))
      errors.push(field(`${identifier}: cardinality must be one of ${QTI_CARDINALITIES.join(', ')}`));
    if (baseType !== null && !(QTI_BASE_TYPES as readonly string[]).includes(baseType))
      errors.push(field(`${identifier}: base-type ${baseType} is not a QTI base type`));
    if (child.name === 'responseDeclaration') {
      if (declarations.has(identifier)) errors.push(field(`response identifier ${identifier} is declared twice`));
      const correctNode = child.children.find((node) => node.name === 'correctResponse');
      const correct = correctNode ? correctNode.children.filter((node) => node.name === 'value').map(textOf) : null;
      declarations.set(identifier, { cardinality, baseType, correct });
    }
    scoring.push({
      ordinal: scoring.length + 1,
      scoring_rule_scope: child.name === 'responseDeclaration' ? 'response' : 'outcome',
      identifier,
      qti_cardinality: cardinality ?? null,
      qti_base_type: baseType,
      template: null,
    });
  }
  const processing = item.children.find((node) => node.name === 'responseProcessing');
  if (processing) {
    const template = processing.attrs.template ?? processing.attrs.templateLocation ?? null;
    scoring.push({
      ordinal: scoring.length + 1,
      scoring_rule_scope: template ? 'template' : 'expression',
      identifier: 'response_processing',
      qti_cardinality: null,
      qti_base_type: null,
      template,
    });
  }

  const body = item.children.find((node) => node.name === 'itemBody');
  if (!body) errors.push(field('the assessment item needs an item body'));
  const slots: AnswerSlotProjection[] = [];
  const components: ComponentProjection[] = [
    {
      ordinal: 1,
      component_role: 'question',
      identifier: itemIdentifier ?? '',
      parent_identifier: null,
      text: item.attrs.title ?? null,
      view: null,
    },
  ];
  for (const node of body ? walk(body) : []) {
    if (node.name.endsWith('Interaction') && node.attrs.responseIdentifier !== undefined) {
      const identifier = node.attrs.responseIdentifier;
      const declaration = declarations.get(identifier);
      if (!declaration) {
        errors.push(field(`interaction ${identifier} has no response declaration`));
        continue;
      }
      if (slots.some((slot) => slot.response_identifier === identifier))
        errors.push(field(`two interactions answer ${identifier}`));
      const choices = [...walk(node)]
        .filter((choice) => CHOICES.has(choice.name) && choice.attrs.identifier !== undefined)
        .map((choice) => ({ identifier: choice.attrs.identifier, text: textOf(choice) }));
      const choiceIds = new Set(choices.map((choice) => choice.identifier));
      if (choiceIds.size !== choices.length)
        errors.push(field(`interaction ${identifier} repeats a choice identifier`));
      if (declaration.correct && declaration.baseType === 'identifier' && choices.length > 0) {
        for (const value of declaration.correct)
          if (!choiceIds.has(value)) errors.push(field(`correct response ${value} of ${identifier} is not a choice`));
      }
      slots.push({
        response_identifier: identifier,
        ordinal: slots.length + 1,
        interaction_type: node.name
          .replace(/Interaction$/, '')
          .replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
        qti_cardinality: declaration.cardinality,
        qti_base_type: declaration.baseType,
        choices,
        correct_values: declaration.correct,
      });
      // A pair or directedPair value ("C R") is two choice identifiers: both are part of the answer.
      const pairs = declaration.baseType === 'pair' || declaration.baseType === 'directedPair';
      const correct = new Set(
        (declaration.correct ?? []).flatMap((value) => (pairs ? value.trim().split(/\s+/) : [value])),
      );
      for (const choice of choices) {
        if (!correct.has(choice.identifier)) {
          components.push({
            ordinal: components.length + 1,
            component_role: 'distractor',
            identifier: choice.identifier,
            parent_identifier: identifier,
            text: choice.text,
            view: null,
          });
        }
      }
    } else if (node.name === 'rubricBlock') {
      components.push({
        ordinal: components.length + 1,
        component_role: 'rubric',
        identifier: node.attrs.identifier ?? `rubric-${components.length + 1}`,
        parent_identifier: itemIdentifier ?? null,
        text: textOf(node),
        view: node.attrs.view ?? null,
      });
    }
  }
  for (const node of walk(item)) {
    if (FEEDBACK.has(node.name)) {
      components.push({
        ordinal: components.length + 1,
        component_role: 'preauthored_feedback',
        identifier: node.attrs.identifier ?? `feedback-${components.length + 1}`,
        parent_identifier: node.attrs.outcomeIdentifier ?? null,
        text: textOf(node),
        view: null,
      });
    }
  }
  if (slots.length === 0) errors.push(field('the item body has no interaction with a response-identifier'));
  if (errors.length > 0) refuse(errors);
  return { item_identifier: itemIdentifier, answer_slots: slots, components, scoring };
}
