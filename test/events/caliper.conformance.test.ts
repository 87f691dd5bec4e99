import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { FIXTURES } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { post, producer } from './helpers.ts';
import { CALIPER_ACTIONS, KIND_CATALOGUE, PLAYER_EXTENSION_NAMESPACE } from '../../subgraphs/events/vocabulary.ts';

/**
 * Derived events against the Caliper 1.2 JSON-LD shape, with the IMS common fixtures (LGPL, test
 * data only) as the reference for types, actions, entity types and the required properties.
 */

const V1P2 = path.join(FIXTURES, 'caliper/caliper-common-fixtures/v1p2');
const REQUIRED = ['@context', 'id', 'type', 'actor', 'action', 'object', 'eventTime'];
const UUID_URN = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EVENT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Json = Record<string, any>;
const read = (file: string): Json => JSON.parse(fs.readFileSync(path.join(V1P2, file), 'utf8'));

const it = platformTest();

describe('Caliper 1.2 conformance of derived events', () => {
  const files = fs.readdirSync(V1P2);
  const referenceEvents = files.filter((file) => file.startsWith('caliperEvent')).map(read);
  const entityTypes = new Set(
    files.filter((file) => file.startsWith('caliperEntity')).map((file) => read(file).type as string),
  );

  it('the reference fixtures agree with the action table the service derives from', () => {
    for (const event of referenceEvents) {
      expect(Object.keys(event)).toEqual(expect.arrayContaining(REQUIRED));
      const allowed = CALIPER_ACTIONS[event.type];
      if (allowed) expect([event.type, allowed.includes(event.action)]).toEqual([event.type, true]);
    }
  });

  it.each(Object.entries(KIND_CATALOGUE))('kind %s derives a valid Caliper 1.2 event', async (kind, definition) => {
    const caller = await producer(filePlatform());
    const accepted = await post(filePlatform(), caller, [
      {
        kind,
        studentId: 'stu-42',
        contentId: 'content-42',
        activitySourceId: caller.sourceId,
        happenedAt: '2026-09-01T10:15:00+01:00',
        extensions: { [`${PLAYER_EXTENSION_NAMESPACE}/attempt_ordinal`]: 1 },
      },
    ]);
    expect(accepted.status).toBe(202);
    const event: Json = accepted.body.data[0].caliperEvent;
    const references = referenceEvents.filter((reference) => reference.type === definition.eventType);
    expect(references.length).toBeGreaterThan(0);

    expect(Object.keys(event)).toEqual(expect.arrayContaining(REQUIRED));
    expect(event['@context']).toMatch(/caliper.*v1p2/);
    expect(event.id).toMatch(UUID_URN);
    for (const reference of references) expect(reference.id).toMatch(UUID_URN);
    expect(event.type).toBe(definition.eventType);
    expect(CALIPER_ACTIONS[event.type]).toContain(event.action);
    expect(event.profile).toMatch(/Profile$/);
    expect(event.eventTime).toBe('2026-09-01T09:15:00.000Z');
    expect(references[0].eventTime).toMatch(EVENT_TIME);

    // Actor and object: entities with an IRI id and a Caliper entity type, as in the fixtures.
    const actor =
      definition.actor === 'grader'
        ? { id: `urn:alpha:activity-source:${caller.sourceId}`, type: 'SoftwareApplication' }
        : { id: 'urn:alpha:student:stu-42', type: 'Person' };
    expect(event.actor).toEqual(actor);
    expect(references.some((reference) => reference.actor?.type === actor.type)).toBe(true);
    expect(event.object.id).toBe('urn:alpha:content:content-42');
    expect(entityTypes.has(event.object.type)).toBe(true);

    expect(event.edApp).toEqual({ id: expect.stringMatching(/^https:\/\//), type: 'SoftwareApplication' });
    expect(entityTypes.has(event.edApp.type)).toBe(true);
    expect(event.extensions).toEqual({ [`${PLAYER_EXTENSION_NAMESPACE}/attempt_ordinal`]: 1 });
  });
});
