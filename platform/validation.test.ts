import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCalendarDay, isTimestamp, isoTimestamp } from './validation.ts';

/**
 * A timestamp as PostgreSQL prints it in a UTC session: microseconds, trailing zeros dropped; as text,
 * or as `to_json` writes it (ISO 8601 with a T and +00:00).
 */
function postgresText(date: Date, micros: number, form: 'text' | 'json' = 'text'): string {
  const [day, time] = date.toISOString().slice(0, 19).split('T');
  const fraction = String(date.getUTCMilliseconds() * 1000 + micros)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return form === 'text'
    ? `${day} ${time}${fraction ? `.${fraction}` : ''}+00`
    : `${day}T${time}${fraction ? `.${fraction}` : ''}+00:00`;
}

describe('isoTimestamp', () => {
  it('reads PostgreSQL UTC text and json exactly as a Date would', () => {
    const dates = fc.date({
      min: new Date('1000-01-01T00:00:00Z'),
      max: new Date('9999-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(dates, fc.integer({ min: 0, max: 999 }), fc.constantFrom('text', 'json'), (date, micros, form) => {
        const text = postgresText(date, micros, form);
        expect(isoTimestamp(text)).toBe(new Date(text).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps what toISOString wrote as it is', () => {
    const dates = fc.date({
      min: new Date('1000-01-01T00:00:00Z'),
      max: new Date('9999-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(dates, (date) => {
        expect(isoTimestamp(date.toISOString())).toBe(date.toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves other offsets and forms to Date', () => {
    expect(isoTimestamp('2026-11-24 05:10:00.5+01')).toBe('2026-11-24T04:10:00.500Z');
    expect(isoTimestamp('2026-11-24T04:10:00.123+00:00')).toBe('2026-11-24T04:10:00.123Z');
    expect(isoTimestamp('2026-11-24T04:10:00Z')).toBe('2026-11-24T04:10:00.000Z');
    expect(isoTimestamp(null)).toBeNull();
  });
});

describe('isTimestamp', () => {
  it('accepts RFC 3339 date-times with an offset and nothing else', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }), (date) =>
        isTimestamp(date.toISOString()),
      ),
    );
    for (const value of ['2026-09-01', '2026-09-01T10:00:00', '2026-13-01T10:00:00Z', 'now', '2026-09-01 10:00:00Z']) {
      expect(isTimestamp(value), value).toBe(false);
    }
    expect(isTimestamp('2026-09-01T10:00+02:00')).toBe(true);
    expect(isTimestamp('2026-09-01T23:59:59.123456789-11:30')).toBe(true);
  });

  it('refuses a day or time that does not exist, which Date.parse would roll over', () => {
    for (const value of [
      '2024-02-30T10:00:00Z',
      '2023-02-29T10:00:00Z',
      '2024-04-31T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01T10:60:00Z',
      '2024-01-01T10:00:60Z',
      '2024-01-01T10:00:00+24:00',
      '2024-01-01T10:00:00+01:60',
    ]) {
      expect(isTimestamp(value), value).toBe(false);
    }
    expect(isTimestamp('2024-02-29T10:00:00Z')).toBe(true);
  });

  it('refuses an instant whose offset moves it out of the years 1 to 9999, which PostgreSQL refuses', () => {
    for (const value of ['0001-01-01T00:00:00+01:00', '9999-12-31T23:00:00-05:00']) {
      expect(isTimestamp(value), value).toBe(false);
    }
    expect(isTimestamp('0001-01-01T00:00:00-01:00')).toBe(true);
    expect(isTimestamp('9999-12-31T23:00:00+05:00')).toBe(true);
  });
});

describe('isCalendarDay', () => {
  it('is every day the calendar has, and no other', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }), (date) =>
        isCalendarDay(date.toISOString().slice(0, 10)),
      ),
    );
    for (const value of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-00-10', '0000-06-01']) {
      expect(isCalendarDay(value), value).toBe(false);
    }
  });
});
