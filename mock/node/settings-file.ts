/**
 * `--settings FILE`: a document's settings (JSON or YAML), read and checked at start-up. The shape is
 * DocumentSettings (mock/core/settings.ts); a bad file is an error value naming the file and the field.
 */
import fs from 'node:fs';
import { parseYaml } from '../../spec/yaml-lazy';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../../spec/ajv';
import { formatAjvErrors } from '../../spec/load';
import type { DocumentSettings } from '../core/settings';
import { parseLatency } from '../core/chaos';

const bound = {
  type: 'object',
  additionalProperties: false,
  properties: {
    minLength: { type: 'integer', minimum: 0 },
    maxLength: { type: 'integer', minimum: 0 },
    minimum: { type: 'number' },
    maximum: { type: 'number' },
    pattern: { type: 'string', format: 'regex' },
  },
} as const;

const latency = { type: 'string', pattern: '^\\s*\\d+\\s*(-\\s*\\d+\\s*)?$' } as const;
const faults = { type: 'number', minimum: 0, maximum: 1 } as const;

const signature = { enum: ['sha256', 'hex', 'stripe'] } as const;
const secret = { type: 'string', minLength: 1 } as const;
const httpUrl = { type: 'string', pattern: '^https?://' } as const;

const SETTINGS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    title: { type: 'string' },
    description: { type: 'string' },
    allowUnknownFields: { type: 'boolean' },
    readOnlyProperties: { enum: ['reject', 'ignore'] },
    unexpectedBody: { enum: ['refuse', 'ignore'] },
    bodyBounds: {
      type: 'object',
      additionalProperties: { type: 'object', additionalProperties: bound },
    },
    sunset: { type: ['string', 'null'] },
    latency,
    faults,
    operations: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: { latency, faults },
      },
    },
    successorLink: { type: ['string', 'null'] },
    webhookUrl: httpUrl,
    webhookSecret: secret,
    webhookSignature: signature,
    webhooks: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        // A trigger names both the resource and the event, or neither.
        dependentRequired: { resource: ['event'], event: ['resource'] },
        properties: {
          resource: { type: 'string', minLength: 1 },
          event: { enum: ['created', 'updated', 'deleted'] },
          enabled: { type: 'boolean' },
          url: httpUrl,
          secret,
          signature,
        },
      },
    },
    callbackCredentials: {
      type: 'object',
      additionalProperties: {
        oneOf: [
          secret,
          {
            type: 'object',
            additionalProperties: false,
            minProperties: 1,
            properties: {
              token: secret,
              value: secret,
              username: { type: 'string' },
              password: { type: 'string' },
            },
          },
        ],
      },
    },
    streams: {
      type: 'object',
      additionalProperties: false,
      properties: {
        items: { type: 'integer', minimum: 1, maximum: 100 },
        intervalMs: { type: 'integer', minimum: 0, maximum: 10_000 },
      },
    },
    plans: {
      type: 'object',
      minProperties: 1,
      additionalProperties: {
        type: 'object',
        required: ['perMinute', 'perDay'],
        additionalProperties: false,
        properties: { perMinute: { type: 'integer', minimum: 1 }, perDay: { type: 'integer', minimum: 1 } },
      },
    },
  },
} as const;

// Compiled when a settings file is first checked, and without checking this schema against the meta-schema
// (it is ours, and compiling the meta-schema cost 0.2 s of every start).
let compiled: ValidateFunction<DocumentSettings> | undefined;
const validator = (): ValidateFunction<DocumentSettings> =>
  (compiled ??= createAjv({ validateSchema: false }).compile<DocumentSettings>(SETTINGS_SCHEMA));

export type SettingsResult = { ok: true; settings: DocumentSettings } | { ok: false; error: string };

/** Pure: a parsed settings value checked against its shape. */
export function checkSettings(value: unknown, file: string): SettingsResult {
  const validate = validator();
  if (!validate(value))
    return { ok: false, error: `--settings ${file}: ${formatAjvErrors(validate.errors, 'settings')}` };
  if (value.sunset && Number.isNaN(Date.parse(value.sunset)))
    return { ok: false, error: `--settings ${file}: sunset must be a date, got "${value.sunset}"` };
  for (const [where, text] of [
    ['latency', value.latency],
    ...Object.entries(value.operations ?? {}).map(([id, o]) => [`operations.${id}.latency`, o.latency]),
  ] as const) {
    const parsed = text === undefined ? undefined : parseLatency(text);
    if (parsed && 'problem' in parsed)
      return { ok: false, error: `--settings ${file}: ${where}: ${parsed.problem}` };
  }
  return { ok: true, settings: value };
}

/** Read a settings file: `.json` as JSON, anything else as YAML. */
export function readSettingsFile(file: string): SettingsResult {
  let value: unknown;
  try {
    const text = fs.readFileSync(file, 'utf8');
    value = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    return { ok: false, error: `--settings ${file}: ${(err as Error).message.split('\n')[0] ?? ''}` };
  }
  return checkSettings(value, file);
}
