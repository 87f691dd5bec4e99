import { z } from 'zod';
import { Timestamp } from '../../../platform/openapi.ts';
import { EventsPage, One } from '../envelopes.ts';

const studentName = z.string().nullable().describe('From the people service; null when it does not answer');

const AttendanceResponse = z.strictObject({
  id: z.string(),
  studentId: z.string(),
  studentName,
  schoolId: z.string(),
  classId: z.string().nullable(),
  eventDate: z.iso.date(),
  category: z.string(),
  categoryDescriptor: z.string(),
  durationDays: z.number().nullable(),
  sessionName: z.string().nullable(),
  schoolYear: z.string().nullable(),
  sourceSystem: z.string(),
  sourceRecordId: z.string().nullable(),
  importId: z.string(),
  recordedAt: Timestamp,
});

const DisciplineResponse = z.strictObject({
  id: z.string(),
  incidentId: z.string(),
  studentId: z.string(),
  studentName,
  schoolId: z.string(),
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
  sourceSystem: z.string(),
  sourceRecordId: z.string().nullable(),
  importId: z.string(),
  recordedAt: Timestamp,
});

export const AttendancePageResponse = EventsPage(AttendanceResponse);
export const OneAttendanceResponse = One(AttendanceResponse);
export const DisciplinePageResponse = EventsPage(DisciplineResponse);
export const OneDisciplineResponse = One(DisciplineResponse);
