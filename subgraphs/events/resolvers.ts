import { queryStringOf } from '../../platform/naming.ts';
import { JSONObjectScalar, loaderOf, requestContextOf, type GraphContext } from '../../platform/graphql.ts';
import type { Resolvers } from './generated/graphql.ts';
import type { PlatformRuntime } from '../../platform/service.ts';
import {
  findEvents,
  getEvent,
  knownContentItems,
  listEvents,
  recordEvents,
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

/** Thin adapters over the same service functions as REST; entity reads batch through loaders. */
export function eventsResolvers(runtime: PlatformRuntime, reads: EventsDeps): Resolvers {
  const { db } = runtime.database;
  const sourceLoader = (context: GraphContext) =>
    loaderOf<ActivitySource>(context, 'events.source', async (ctx, ids) => {
      const found = new Map((await findSources(db, ctx, ids)).map((source) => [source.id, source]));
      return ids.map((id) => found.get(id) ?? null);
    });
  const eventLoader = (context: GraphContext) =>
    loaderOf<EventProjection>(context, 'events.event', (ctx, ids) => findEvents(reads, ctx, ids));
  const personLoader = (context: GraphContext) =>
    loaderOf<PersonNames>(context, 'events.person', async (ctx, ids) => {
      const names = await personNames(reads.people, ctx, ids);
      return ids.map((personId) => names.get(personId) ?? null);
    });
  const contentItemLoader = (context: GraphContext) =>
    loaderOf<true>(context, 'events.contentItem', async (ctx, ids) => {
      const found = await knownContentItems(reads, ctx, ids);
      return ids.map((id) => (found.has(id.toLowerCase()) ? true : null));
    });
  const ctxOf = requestContextOf;
  return {
    JSONObject: JSONObjectScalar,
    Query: {
      activitySources: (_root, args, context) => listSources(db, runtime.cursors, ctxOf(context), queryStringOf(args)),
      activitySource: (_root, args, context) => sourceLoader(context).load(args.id),
      events: (_root, args, context) => listEvents(reads, ctxOf(context), sent(args)),
      event: async (_root, args, context) => (await getEvent(reads, ctxOf(context), args.id)).data,
      attendanceEvents: (_root, args, context) => listAttendanceEvents(reads, ctxOf(context), sent(args)),
      attendanceEvent: async (_root, args, context) => (await getAttendanceEvent(reads, ctxOf(context), args.id)).data,
      disciplineEvents: (_root, args, context) => listDisciplineEvents(reads, ctxOf(context), sent(args)),
      disciplineEvent: async (_root, args, context) => (await getDisciplineEvent(reads, ctxOf(context), args.id)).data,
    },
    Mutation: {
      registerActivitySource: async (_root, args, context) =>
        (await registerSource(reads, ctxOf(context), { body: args })).value,
      recordEvents: async (_root, args, context) =>
        (
          await recordEvents(reads, ctxOf(context), {
            body: { events: args.events.map(sent) },
            idempotencyKey: args.idempotencyKey ?? undefined,
          })
        ).value,
      importSourceRecords: async (_root, args, context) =>
        (
          await runSourceImport(reads, ctxOf(context), {
            body: sent(args.input),
            idempotencyKey: args.idempotencyKey ?? undefined,
          })
        ).value,
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
      events: (item, args, context) => listEvents(reads, ctxOf(context), { ...sent(args), contentId: item.contentId }),
    },
    Person: {
      __resolveReference: async (reference, context) =>
        (await personLoader(context).load(reference.personId)) ? reference : null,
      givenName: async (person, _args, context) =>
        (await personLoader(context).load(person.personId))?.givenName ?? null,
      familyName: async (person, _args, context) =>
        (await personLoader(context).load(person.personId))?.familyName ?? null,
      events: (person, args, context) =>
        listEvents(reads, ctxOf(context), { ...sent(args), studentId: person.personId }),
    },
    AttendanceEvent: {
      student: (moment) => ({ personId: moment.studentId }),
    },
    DisciplineEvent: {
      student: (moment) => ({ personId: moment.studentId }),
    },
  };
}
