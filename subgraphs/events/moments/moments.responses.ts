import { z } from 'zod';
import { Timestamp } from '../../../platform/openapi.ts';
import { EventsPage, One } from '../envelopes.ts';

/** Whom a moment is about; the people service names the student. */
const learnerFields = {
  studentId: z.string(),
  studentName: z.string().nullable().describe('From the people service; null when it does not answer'),
  schoolId: z.string(),
};

/** Where an imported moment came from, and when it was recorded. */
const provenanceFields = {
  sourceSystem: z.string(),
  sourceRecordId: z.string().nullable(),
  importId: z.string(),
  recordedAt: Timestamp,
};

const AttendanceResponse = z.strictObject({
  id: z.string(),
  ...learnerFields,
  classId: z.string().nullable(),
  eventDate: z.iso.date(),
  category: z.string(),
  categoryDescriptor: z.string(),
  durationDays: z.number().nullable(),
  sessionName: z.string().nullable(),
  schoolYear: z.string().nullable(),
  ...provenanceFields,
});

const DisciplineResponse = z.strictObject({
  id: z.string(),
  incidentId: z.string(),
  ...learnerFields,
  eventDate: z.iso.date(),
  incidentTime: z.string().nullable(),
  behavior: z.string(),
  behaviorDescriptor: z.string(),
  participationCode: z.string().nullable(),
  participationCodeDescriptor: z.string().nullable(),
  location: z.string().nullable(),
  locationDescriptor: z.string().nullable(),
  disciplineAction: z.string().nullable(),
  disciplineActionDescriptor: z.string().nullable(),
  reporterDescription: z.string().nullable(),
  reporterDescriptionDescriptor: z.string().nullable(),
  ...provenanceFields,
});

export const AttendancePageResponse = EventsPage(AttendanceResponse);
export const OneAttendanceResponse = One(AttendanceResponse);
export const DisciplinePageResponse = EventsPage(DisciplineResponse);
export const OneDisciplineResponse = One(DisciplineResponse);
