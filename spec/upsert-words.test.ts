import { UPSERT_WORDS } from './resources';

describe('a create that says it also updates', () => {
  it.each([
    'Post a new silence or update an existing one',
    'Create or update a secret',
    'upsertContact',
    'Adds a record, or replaces it if it already exists',
    'Replaces the entry if it exists',
  ])('reads %p as create-or-update', (text) => expect(UPSERT_WORDS.test(text)).toBe(true));

  it.each(['Create a pet', 'Update a pet', 'Create a webhook; to update it use PATCH', 'Add a tag'])(
    'reads %p as no update',
    (text) => expect(UPSERT_WORDS.test(text)).toBe(false),
  );
});
