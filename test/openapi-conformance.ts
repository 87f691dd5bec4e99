import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { SERVICE_ROOTS } from '../platform/config.ts';

/**
 * Every answer the suite receives from a described REST operation is checked against the served
 * OpenAPI description: its status is listed, its media type is listed for that status, and its
 * body validates against the schema. Mismatches are collected and fail the test file at its end.
 */

interface Description {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: unknown;
}

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateSchema: false }));
const descriptions = new Map<string, Promise<Description | undefined>>();
const validators = new Map<string, ValidateFunction>();
export const conformanceMismatches: string[] = [];

async function descriptionAt(origin: string, root: string): Promise<Description | undefined> {
  const key = `${origin}${root}`;
  if (!descriptions.has(key)) {
    descriptions.set(
      key,
      fetch(`${key}/openapi.json`).then(async (reply) =>
        reply.ok ? ((await reply.json()) as Description) : undefined,
      ),
    );
  }
  return descriptions.get(key);
}

function templateMatches(template: string, path: string): boolean {
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${pattern}/?$`).test(path);
}

/** The operation template of a concrete path: a literal segment wins over a parameter. */
function templateOf(description: Description, path: string): string | undefined {
  const candidates = Object.keys(description.paths).filter((template) => templateMatches(template, path));
  return candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

function validatorFor(key: string, schema: unknown, description: Description): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ ...(schema as object), components: description.components });
    validators.set(key, validate);
  }
  return validate;
}

export async function checkAnswer(
  origin: string,
  exchange: { method: string; url: string; status: number; contentType: string | null; body: unknown },
): Promise<void> {
  const path = exchange.url.split('?')[0];
  const root = Object.values(SERVICE_ROOTS).find((candidate) => path === candidate || path.startsWith(`${candidate}/`));
  if (!root) return;
  const description = await descriptionAt(origin, root);
  const template = description && templateOf(description, path);
  const operation = template ? description.paths[template][exchange.method.toLowerCase()] : undefined;
  if (!description || !template || !operation) return;
  const where = `${exchange.method} ${template} → ${exchange.status}`;
  const response = operation.responses[String(exchange.status)];
  if (!response) {
    conformanceMismatches.push(`${where}: status not described`);
    return;
  }
  if (exchange.body === undefined) return;
  const mediaType = exchange.contentType?.split(';')[0].trim() ?? '';
  const media = response.content?.[mediaType] ?? response.content?.['*/*'];
  if (!media) {
    conformanceMismatches.push(`${where}: media type ${mediaType} not described`);
    return;
  }
  if (!mediaType.endsWith('json')) return;
  const validate = validatorFor(
    `${root}|${template}|${exchange.method}|${exchange.status}|${mediaType}`,
    media.schema,
    description,
  );
  if (!validate(exchange.body)) {
    conformanceMismatches.push(`${where}: body does not match: ${ajv.errorsText(validate.errors)}`);
  }
}
