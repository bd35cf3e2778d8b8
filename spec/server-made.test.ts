import { serverMade } from './server-made';
import type { Schema } from './schema-shape';

describe('what a server makes of an item the create does not take', () => {
  it.each([
    ['number', { type: 'integer' }],
    ['html_url', { type: 'string' }],
    ['url', { type: 'string', format: 'uri' }],
    ['created_at', { type: 'string', format: 'date-time' }],
    ['updatedAt', { type: 'string' }],
    ['state', { type: 'string', enum: ['open', 'closed'] }],
  ])('makes %p', (name, schema) => expect(serverMade(name, schema as Schema)).toBe(true));

  it.each([
    ['closed_at', { type: 'string', format: 'date-time' }],
    ['merged_at', { type: 'string', format: 'date-time' }],
    ['state', { type: 'string' }],
    ['user', { type: 'object' }],
    ['labels', { type: 'array' }],
    ['html_url', { type: 'object' }],
    ['title', { type: 'string' }],
    ['repository_id', { type: 'integer' }],
  ])('leaves %p alone', (name, schema) => expect(serverMade(name, schema as Schema)).toBe(false));
});
