/** Every client of the kit, in the order the table lists them. */
import type { AnyKit } from './kit';
import { mux } from './mux';

export const KITS: AnyKit[] = [mux];
