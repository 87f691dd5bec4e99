import { describe, expect, it } from 'vitest';
import { acceptsJson } from './accept.ts';

describe('acceptsJson', () => {
  it('accepts JSON under any header that leaves it a media type with a positive quality', () => {
    for (const header of [
      undefined,
      '',
      '*/*',
      'application/json',
      'application/problem+json',
      'application/*',
      'Application/JSON; charset=utf-8',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'application/json, text/plain, */*',
      'application/xml, application/json;q=0.1',
      'garbage',
    ]) {
      expect(acceptsJson(header), String(header)).toBe(true);
    }
  });

  it('refuses a header that excludes every JSON type', () => {
    for (const header of [
      'application/xml',
      'text/html',
      'text/*',
      'image/png, text/csv;q=0.5',
      'application/json;q=0',
      'application/json;q=0, application/problem+json;q=0, */*',
      'application/*;q=0, */*',
      '*/*;q=0',
    ]) {
      expect(acceptsJson(header), header).toBe(false);
    }
  });
});
