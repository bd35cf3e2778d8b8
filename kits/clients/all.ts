/** Every client of the kit, in the order the table lists them. */
import type { AnyKit } from './kit';
import { mux } from './mux';
import { openai } from './openai';
import { sendgrid } from './sendgrid';

export const KITS: AnyKit[] = [mux, openai, sendgrid];
