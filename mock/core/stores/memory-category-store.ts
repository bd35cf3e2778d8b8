/** Categories in process memory: the embedded default for one mock on a laptop. */
import type { Category, NewCategory } from '../../../spec/types';
import type { CategoryStore } from './types';

/** Build an in-memory category store holding `seed`. */
export function createMemoryCategoryStore(seed: readonly NewCategory[] = []): CategoryStore {
  let items: Category[] = [];
  let nextId = 1;
  let version = 0;

  const add = (input: NewCategory): Category => {
    // Copy only the published fields: nothing else the client sent is ever stored.
    const category: Category = { id: nextId++, name: input.name };
    if (input.description !== undefined) category.description = input.description;
    items.push(category);
    version++;
    return category;
  };
  const load = (entries: readonly NewCategory[]): void => {
    items = [];
    nextId = 1;
    version++;
    for (const entry of entries) add(entry);
  };
  load(seed);

  return {
    create: async (input) => add(input),
    list: async () => items,
    version: async () => version,
    reset: async (entries) => load(entries),
    close: async () => undefined,
  };
}
