/**
 * The events service's governed vocabularies in one place: the kind catalogue over Caliper 1.2,
 * the player extension registry, and the Ed-Fi 5.2 descriptor code values used to normalize
 * school-records rows.
 */

export const CALIPER_CONTEXT = 'http://purl.imsglobal.org/ctx/caliper/v1p2';

export interface KindDefinition {
  eventType: string;
  profile: string;
  action: string;
  /** Caliper type of the derived object when only a contentId is sent. */
  objectType: string;
  /**
   * Who the derived actor is: the student (default), or the grader (the activity source that sent
   * the event), as in Caliper's GradeEvent; the student is then the object's assignee.
   */
  actor?: 'grader';
}

/** School-language kinds and the Caliper 1.2 event each one is; the catalogue is ours (spec: not shown). */
export const KIND_CATALOGUE: Record<string, KindDefinition> = {
  content_viewed: {
    eventType: 'ViewEvent',
    profile: 'ReadingProfile',
    action: 'Viewed',
    objectType: 'DigitalResource',
  },
  content_navigated: {
    eventType: 'NavigationEvent',
    profile: 'ReadingProfile',
    action: 'NavigatedTo',
    objectType: 'DigitalResource',
  },
  assessment_started: {
    eventType: 'AssessmentEvent',
    profile: 'AssessmentProfile',
    action: 'Started',
    objectType: 'Assessment',
  },
  assessment_submitted: {
    eventType: 'AssessmentEvent',
    profile: 'AssessmentProfile',
    action: 'Submitted',
    objectType: 'Assessment',
  },
  question_started: {
    eventType: 'AssessmentItemEvent',
    profile: 'AssessmentProfile',
    action: 'Started',
    objectType: 'AssessmentItem',
  },
  question_skipped: {
    eventType: 'AssessmentItemEvent',
    profile: 'AssessmentProfile',
    action: 'Skipped',
    objectType: 'AssessmentItem',
  },
  question_answered: {
    eventType: 'AssessmentItemEvent',
    profile: 'AssessmentProfile',
    action: 'Completed',
    objectType: 'AssessmentItem',
  },
  activity_started: {
    eventType: 'AssignableEvent',
    profile: 'AssignableProfile',
    action: 'Started',
    objectType: 'AssignableDigitalResource',
  },
  activity_completed: {
    eventType: 'AssignableEvent',
    profile: 'AssignableProfile',
    action: 'Completed',
    objectType: 'AssignableDigitalResource',
  },
  video_started: { eventType: 'MediaEvent', profile: 'MediaProfile', action: 'Started', objectType: 'VideoObject' },
  video_paused: { eventType: 'MediaEvent', profile: 'MediaProfile', action: 'Paused', objectType: 'VideoObject' },
  video_ended: { eventType: 'MediaEvent', profile: 'MediaProfile', action: 'Ended', objectType: 'VideoObject' },
  tool_used: {
    eventType: 'ToolUseEvent',
    profile: 'ToolUseProfile',
    action: 'Used',
    objectType: 'SoftwareApplication',
  },
  signed_in: {
    eventType: 'SessionEvent',
    profile: 'SessionProfile',
    action: 'LoggedIn',
    objectType: 'SoftwareApplication',
  },
  signed_out: {
    eventType: 'SessionEvent',
    profile: 'SessionProfile',
    action: 'LoggedOut',
    objectType: 'SoftwareApplication',
  },
  /** A graded result: the results service's verdict on an attempt, carried in the grading extensions. */
  assessment_graded: {
    eventType: 'GradeEvent',
    profile: 'GradingProfile',
    action: 'Graded',
    objectType: 'Attempt',
    actor: 'grader',
  },
};

/** The kind a vendor learning-activity row becomes. */
export const VENDOR_ACTIVITY_KIND = 'activity_completed';

/** Caliper 1.2 actions each event type allows (Caliper Analytics 1.2, section 4). */
export const CALIPER_ACTIONS: Record<string, readonly string[]> = {
  ViewEvent: ['Viewed'],
  NavigationEvent: ['NavigatedTo'],
  AssessmentEvent: ['Started', 'Paused', 'Resumed', 'Restarted', 'Reset', 'Submitted'],
  AssessmentItemEvent: ['Started', 'Skipped', 'Completed'],
  AssignableEvent: ['Activated', 'Deactivated', 'Started', 'Completed', 'Submitted', 'Reviewed'],
  MediaEvent: [
    'Started',
    'Ended',
    'Paused',
    'Resumed',
    'Restarted',
    'ForwardedTo',
    'JumpedTo',
    'ChangedResolution',
    'ChangedSize',
    'ChangedSpeed',
    'ChangedVolume',
    'EnabledClosedCaptioning',
    'DisabledClosedCaptioning',
    'EnteredFullScreen',
    'ExitedFullScreen',
    'Muted',
    'Unmuted',
    'OpenedPopout',
    'ClosedPopout',
  ],
  ToolUseEvent: ['Used'],
  SessionEvent: ['LoggedIn', 'LoggedOut', 'TimedOut'],
  GradeEvent: ['Graded'],
};

/**
 * The governed player extension registry
 * alpha.policy.events.player_extension_registry.v2026-07-18.issue-1128. Keys are sent as
 * `${PLAYER_EXTENSION_NAMESPACE}/<key>`; the namespace value is ours (spec: not shown).
 */
export const PLAYER_EXTENSION_NAMESPACE = 'urn:alpha:events:player';
export const PLAYER_EXTENSION_KEYS = [
  'renderer_ref',
  'interaction_id',
  'component_id',
  'component_type',
  'question_id',
  'rendered_content_id',
  'response_identifier',
  'response_value',
  'response_label',
  'first_attempt',
  'attempt_ordinal',
  'attempt_count',
  'effort_signals',
  'response_time_ms',
  'hint_usage',
  'occurred_at',
  'idempotency_key',
] as const;

/**
 * Grading extensions of an assessment_graded event: the verdict the grader reached (the events
 * service stores it and does no score math). Values are closed vocabularies.
 */
export const GRADING_EXTENSION_NAMESPACE = 'urn:alpha:events:grading';
export const GRADING_EXTENSION_VALUES = {
  outcome: ['passed', 'failed'],
  remediation_category: ['never_learned', 'forgot', 'careless'],
} as const satisfies Record<string, readonly string[]>;

/** Ed-Fi Data Standard 5.2 descriptor code values (uri://ed-fi.org/<Descriptor>#<CodeValue>). */
export const EDFI_DESCRIPTORS = {
  AttendanceEventCategoryDescriptor: [
    'Early departure',
    'Excused Absence',
    'In Attendance',
    'Partial',
    'Present',
    'Tardy',
    'Unexcused Absence',
  ],
  BehaviorDescriptor: ['State Offense', 'School Violation', 'School Code of Conduct', 'Other'],
  DisciplineIncidentParticipationCodeDescriptor: ['Perpetrator', 'Reporter', 'Victim', 'Witness'],
  IncidentLocationDescriptor: [
    'Administrative offices area',
    'Athletic field or playground',
    'Auditorium',
    'Bus stop',
    'Cafeteria area',
    'Classroom',
    'Computer lab',
    'Hallway or stairs',
    'Library/media center',
    'Locker room or gym areas',
    'Off campus',
    'Off-campus at a school sponsored activity',
    'Off-campus at another location unrelated to school',
    'Off-campus at other school',
    'Off-campus at other school district facility',
    'On campus',
    'On-campus other inside area',
    'On-campus other outside area',
    'Online',
    'Parking lot',
    'Restroom',
    'School bus',
    'Stadium',
    'Unknown',
    'Walking to or from school',
  ],
  DisciplineDescriptor: [
    'Removal from Classroom',
    'In School Suspension',
    'Out of School Suspension',
    'Expulsion',
    'Expulsion with Services',
    'Community Service',
    'Other',
    'No action for incident',
    'Expulsion under Guns Free School Act',
    'Expulsion under Guns Free School Act with Services',
  ],
  ReporterDescriptionDescriptor: [
    'Law enforcement officer',
    'Non-school personnel',
    'Other',
    'Parent/guardian',
    'Staff',
    'Student',
  ],
} as const satisfies Record<string, readonly string[]>;

export type DescriptorName = keyof typeof EDFI_DESCRIPTORS;

export interface ResolvedDescriptor {
  codeValue: string;
  descriptor: string;
}

/**
 * A code value or a full descriptor URI, resolved to both; code values match case-insensitively
 * because SIS exports differ in case. Undefined when the value is not in the vocabulary.
 */
export function resolveDescriptor(name: DescriptorName, value: string): ResolvedDescriptor | undefined {
  const prefix = `uri://ed-fi.org/${name}#`;
  const code = value.startsWith(prefix) ? value.slice(prefix.length) : value;
  const match = (EDFI_DESCRIPTORS[name] as readonly string[]).find(
    (known) => known.toLowerCase() === code.trim().toLowerCase(),
  );
  return match ? { codeValue: match, descriptor: `${prefix}${match}` } : undefined;
}
