import path from 'node:path';
import { loadSpecOrThrow } from '../../spec/load';
import { inferResources, type ResourceModel } from '../../spec/resources';
import type { CompiledSpec } from '../../spec/compile';
import { settingsWith } from './engine';
import { describeWebhooks, eventOfName, webhookCatalogue, wordsOf } from './webhooks';

const SPEC = path.join(__dirname, '..', '..', 'fixtures', 'specs', 'webhooks-31.yaml');
let spec: CompiledSpec;
let model: ResourceModel;
beforeAll(async () => {
  spec = await loadSpecOrThrow(SPEC);
  const inferred = inferResources(spec);
  if (!inferred.ok) throw new Error(inferred.error);
  model = inferred.model;
});

describe('which state change a webhook reports', () => {
  it.each([
    ['petCreated', 'created'],
    ['pet.created', 'created'],
    ['order-updated', 'updated'],
    ['pet_deleted', 'deleted'],
    ['balancePlatform.accountHolder.created', 'created'],
    ['Account categories updated', 'updated'],
    ['member.removed', 'deleted'],
    ['podcastsSubmitAccepted', undefined],
  ])('%s -> %s', (name, event) => {
    expect(eventOfName(name)).toBe(event);
  });

  it('splits names into words', () => {
    expect(wordsOf('balancePlatform.accountHolder.created')).toEqual([
      'balance',
      'platform',
      'account',
      'holder',
      'created',
    ]);
  });

  it('matches by convention (the item schema, or a wrapper the name names), by x-mock, or not at all', () => {
    const { defs, problems } = webhookCatalogue(spec.document, model, {});
    expect(problems).toEqual([]);
    expect(Object.fromEntries(defs.map((d) => [d.name, d.trigger ?? null]))).toEqual({
      petCreated: { resource: 'pets', event: 'created', by: 'convention' },
      'pet.updated': { resource: 'pets', event: 'updated', by: 'convention' },
      'pet-deleted': { resource: 'pets', event: 'deleted', by: 'convention' },
      orderPlaced: { resource: 'orders', event: 'created', by: 'x-mock' },
      stockLow: null,
    });
    expect(defs.find((d) => d.name === 'petCreated')?.signatureHeader).toBe('X-Hub-Signature-256');
    expect(defs.find((d) => d.name === 'stockLow')?.signatureHeader).toBe('Stripe-Signature');
  });

  it('the settings win, and name only webhooks, resources and events that exist', () => {
    const own = webhookCatalogue(spec.document, model, {
      stockLow: { resource: 'orders', event: 'updated' },
    });
    expect(own.defs.find((d) => d.name === 'stockLow')?.trigger).toEqual({
      resource: 'orders',
      event: 'updated',
      by: 'settings',
    });
    const bad = webhookCatalogue(spec.document, model, {
      nope: { enabled: false },
      stockLow: { resource: 'kittens', event: 'created' },
    });
    expect(bad.problems).toEqual([
      'webhooks.stockLow: no resource kittens (resources: pets, orders)',
      'webhooks.nope: the document has no webhook nope (it has: petCreated, pet.updated, pet-deleted, orderPlaced, stockLow)',
    ]);
  });
});

describe('the start banner', () => {
  it('names each webhook a change sends, and counts those sent on demand only', () => {
    const config = settingsWith({
      webhookUrl: 'http://127.0.0.1:9/h',
      webhookSecret: 'whsec_x',
      webhooks: { 'pet-deleted': { enabled: false } },
    });
    expect(describeWebhooks({ config, model, spec })).toEqual([
      'petCreated: pets created (convention, signed X-Hub-Signature-256) -> http://127.0.0.1:9/h',
      'pet.updated: pets updated (convention) -> http://127.0.0.1:9/h',
      'orderPlaced: orders created (x-mock) -> http://127.0.0.1:9/h',
      '2 more sent on demand only: POST /_mock/webhooks/NAME; GET /_mock/webhooks lists them',
    ]);
    expect(describeWebhooks({ config: settingsWith({}), model, spec })).toEqual([
      '5 sent on demand only: POST /_mock/webhooks/NAME (needs --webhooks URL); GET /_mock/webhooks lists them',
    ]);
  });

  it('a webhook URL given for a document without webhooks is said to send nothing; the start goes on', async () => {
    const plain = await loadSpecOrThrow(
      path.join(__dirname, '..', '..', 'fixtures', 'specs', 'streams-32.yaml'),
    );
    const inferred = inferResources(plain);
    if (!inferred.ok) throw new Error(inferred.error);
    const config = settingsWith({ webhookUrl: 'http://127.0.0.1:9/h' });
    expect(describeWebhooks({ config, model: inferred.model, spec: plain })).toEqual([
      'none: the document has no webhooks, so --webhooks http://127.0.0.1:9/h sends nothing',
    ]);
    expect(describeWebhooks({ config: settingsWith({}), model: inferred.model, spec: plain })).toEqual([]);
  });
});
