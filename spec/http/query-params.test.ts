import { sharedAjv } from '../ajv';
import type { ParamSpec } from '../compile';
import { flattenedQueryValue } from './query-params';
import { parameterProblem } from './request-rules';

const TRACKING = {
  name: 'TrackingOptions',
  schema: { type: 'object', properties: { CustomRedirectDomain: { type: 'string' } } },
} as const;
const TAGS = {
  name: 'Tags',
  schema: {
    type: 'array',
    items: { type: 'object', properties: { Key: { type: 'string' }, Value: { type: 'string' } } },
  },
} as const;
const FILTER = {
  name: 'filter',
  style: 'deepObject',
  schema: { type: 'object', properties: { status: { type: 'string' }, limit: { type: 'integer' } } },
} as const;

const FILTER_FORM = { ...FILTER, style: 'form' } as const;

describe('flattenedQueryValue', () => {
  it.each<[string, Pick<ParamSpec, 'name' | 'schema' | 'style'>, string, unknown]>([
    [
      'AWS dotted object',
      TRACKING,
      'Action=X&TrackingOptions.CustomRedirectDomain=a.b',
      { CustomRedirectDomain: 'a.b' },
    ],
    [
      'form explode: properties spread',
      TRACKING,
      'Action=X&CustomRedirectDomain=a.b',
      { CustomRedirectDomain: 'a.b' },
    ],
    ['form explode: properties typed', FILTER_FORM, 'limit=5&x=1', { limit: 5 }],
    [
      'AWS member list',
      TAGS,
      'Tags.member.1.Key=k&Tags.member.1.Value=v&Tags.member.2.Key=l',
      [{ Key: 'k', Value: 'v' }, { Key: 'l' }],
    ],
    ['bracketed list', TAGS, 'Tags[0][Key]=k', [{ Key: 'k' }]],
    ['deepObject, typed', FILTER, 'filter[status]=open&filter[limit]=5', { status: 'open', limit: 5 }],
    ['none of its members', FILTER, 'status=open', undefined],
  ])('%s', (_, p, raw, value) => {
    expect(flattenedQueryValue(p, raw)).toEqual(value);
  });

  it('lets the shared rule find a required object parameter sent flattened, and judge it', () => {
    const spec: ParamSpec = {
      ...FILTER,
      schema: { ...FILTER.schema },
      in: 'query',
      required: true,
      validate: sharedAjv().compile(FILTER.schema),
    };
    const op = { responses: new Map([['400', {}]]) } as unknown as Parameters<typeof parameterProblem>[0];
    const none = () => undefined;
    expect(parameterProblem(op, [spec], none, 'filter[status]=open')).toBeUndefined();
    expect(parameterProblem(op, [spec], none, 'filter[limit]=many')).toMatchObject({ status: 400 });
    expect(parameterProblem(op, [spec], none, 'other=1')).toMatchObject({ message: /is required/ });
  });
});
