import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { queryStringOf } from '../../platform/naming.ts';
import {
  commandValue,
  JSONObjectScalar,
  loaderOf,
  requestContextOf,
  type GraphContext,
} from '../../platform/graphql.ts';
import type { Resolvers } from './generated/graphql.ts';
import {
  findEvents,
  getEvent,
  knownContentItems,
  listEventFields,
  recordEvents,
  tallyEvents,
  EVENT_FIELDS,
  type EventProjection,
} from './learning/events.service.ts';
import type { EventsDeps } from './deps.ts';
import { runSourceImport } from './imports/imports.service.ts';
import { personNames, type PersonNames } from './people.ts';
import {
  getAttendanceEvent,
  getDisciplineEvent,
  listAttendanceEvents,
  listDisciplineEvents,
} from './moments/moments.service.ts';
import { findSources, listSources, registerSource, type ActivitySource } from './sources/sources.service.ts';

type Args = Record<string, unknown>;

/** The parents of the entities other subgraphs own: only their key. */
export interface ContentItemReference {
  contentId: string;
}
export interface PersonReference {
  personId: string;
}

/** GraphQL sends omitted optional arguments as absent and explicit ones as null: both mean "not sent". */
const sent = (args: Args): Args =>
  Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null && value !== undefined));

/** The names of the fields a selection set selects, through its fragments. */
function selectedNames(
  set: SelectionSetNode | undefined,
  info: GraphQLResolveInfo,
  into: Map<string, SelectionSetNode[]>,
) {
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      const sets = into.get(selection.name.value) ?? [];
      if (selection.selectionSet) sets.push(selection.selectionSet);
      into.set(selection.name.value, sets);
    } else {
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : info.fragments[selection.name.value];
      selectedNames(fragment?.selectionSet, info, into);
    }
  }
  return into;
}

/** The fields of GET /events an Event reference reads: its key. */
const REFERENCE_KEYS: Record<string, string> = {
  student: 'studentId',
  contentItem: 'contentId',
  activitySource: 'activitySourceId',
};

/**
 * The `fields` of GET /events a page's selection reads (`data { ... }`), so a list that selects no
 * studentName asks the people service nothing and one without caliperEvent reads no activity source.
 */
function selectedEventFields(info: GraphQLResolveInfo): string {
  const page = new Map<string, SelectionSetNode[]>();
  for (const node of info.fieldNodes) selectedNames(node.selectionSet, info, page);
  const event = new Map<string, SelectionSetNode[]>();
  for (const set of page.get('data') ?? []) selectedNames(set, info, event);
  const fields = new Set<string>(['id']);
  for (const name of event.keys()) fields.add(REFERENCE_KEYS[name] ?? name);
  return EVENT_FIELDS.filter((field) => fields.has(field)).join(',');
}

/** Thin adapters over the same service functions as REST; entity reads batch through loaders. */
export function eventsResolvers(reads: EventsDeps): Resolvers {
  const sourceLoader = (context: GraphContext) =>
    loaderOf<ActivitySource>(context, 'events.source', async (ctx, ids) => {
      const found = new Map((await findSources(reads, ctx, { sourceIds: ids })).map((source) => [source.id, source]));
      // The database answers a uuid in lower case, whatever case the id was asked in.
      return ids.map((id) => found.get(id.toLowerCase()) ?? null);
    });
  const eventLoader = (context: GraphContext) =>
    loaderOf<EventProjection>(context, 'events.event', (ctx, ids) => findEvents(reads, ctx, { ids }));
  const personLoader = (context: GraphContext) =>
    loaderOf<PersonNames>(context, 'events.person', async (ctx, ids) => {
      const names = await personNames(reads.people, ctx, ids);
      return ids.map((personId) => names.get(personId) ?? null);
    });
  const contentItemLoader = (context: GraphContext) =>
    loaderOf<true>(context, 'events.contentItem', async (ctx, ids) => {
      const found = await knownContentItems(reads, ctx, { contentIds: ids });
      return ids.map((id) => (found.has(id.toLowerCase()) ? true : null));
    });
  const ctxOf = requestContextOf;
  /** A page of events with the fields its selection reads; a field left out is one no resolver reads. */
  const eventList = (context: GraphContext, info: GraphQLResolveInfo, query: Args) =>
    listEventFields(reads, ctxOf(context), { query: { ...query, fields: selectedEventFields(info) } }) as Promise<{
      data: Array<EventProjection & { studentName: string | null }>;
      nextCursor: string | null;
    }>;
  return {
    JSONObject: JSONObjectScalar,
    Query: {
      activitySources: (_root, args, context) => listSources(reads, ctxOf(context), { query: queryStringOf(args) }),
      activitySource: (_root, args, context) => sourceLoader(context).load(args.id),
      events: (_root, args, context, info) => eventList(context, info, sent(args)),
      event: async (_root, args, context) => (await getEvent(reads, ctxOf(context), { eventId: args.id })).data,
      eventTallies: (_root, args, context) => tallyEvents(reads, ctxOf(context), { query: sent(args) }),
      attendanceEvents: (_root, args, context) => listAttendanceEvents(reads, ctxOf(context), { query: sent(args) }),
      attendanceEvent: async (_root, args, context) => (await getAttendanceEvent(reads, ctxOf(context), args)).data,
      disciplineEvents: (_root, args, context) => listDisciplineEvents(reads, ctxOf(context), { query: sent(args) }),
      disciplineEvent: async (_root, args, context) => (await getDisciplineEvent(reads, ctxOf(context), args)).data,
    },
    Mutation: {
      registerActivitySource: (_root, args, context) =>
        commandValue(registerSource(reads, ctxOf(context), { body: args })),
      recordEvents: (_root, args, context) =>
        commandValue(
          recordEvents(reads, ctxOf(context), {
            body: { events: args.events.map(sent) },
            idempotencyKey: args.idempotencyKey ?? undefined,
          }),
        ),
      importSourceRecords: (_root, args, context) =>
        commandValue(
          runSourceImport(reads, ctxOf(context), {
            body: sent(args.input),
            idempotencyKey: args.idempotencyKey ?? undefined,
          }),
        ),
    },
    ActivitySource: {
      __resolveReference: (reference, context) => sourceLoader(context).load(reference.id),
    },
    Event: {
      __resolveReference: (reference, context) => eventLoader(context).load(reference.id),
      student: (event) => (event.studentId ? { personId: event.studentId } : null),
      contentItem: (event) => (event.contentId ? { contentId: event.contentId } : null),
      activitySource: (event, _args, context) => sourceLoader(context).load(event.activitySourceId),
    },
    ContentItem: {
      __resolveReference: async (reference, context) =>
        (await contentItemLoader(context).load(reference.contentId)) ? reference : null,
      events: (item, args, context, info) => eventList(context, info, { ...sent(args), contentId: item.contentId }),
      eventTallies: (item, args, context) =>
        tallyEvents(reads, ctxOf(context), { query: { ...sent(args), contentId: item.contentId } }),
    },
    Person: {
      __resolveReference: async (reference, context) =>
        (await personLoader(context).load(reference.personId)) ? reference : null,
      givenName: async (person, _args, context) =>
        (await personLoader(context).load(person.personId))?.givenName ?? null,
      familyName: async (person, _args, context) =>
        (await personLoader(context).load(person.personId))?.familyName ?? null,
      events: (person, args, context, info) => eventList(context, info, { ...sent(args), studentId: person.personId }),
    },
    AttendanceEvent: {
      student: (moment) => ({ personId: moment.studentId }),
    },
    DisciplineEvent: {
      student: (moment) => ({ personId: moment.studentId }),
    },
  };
}
