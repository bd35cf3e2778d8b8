/** Every client of the kit, in the order the table lists them. */
import { asana } from './asana';
import { dockerKit } from './docker';
import { hcloudKit } from './hcloud';
import type { AnyKit } from './kit';
import { linode } from './linode';
import { mailchimpKit } from './mailchimp';
import { mux } from './mux';
import { openai } from './openai';
import { sendgrid } from './sendgrid';
import { twilio } from './twilio';

export const KITS: AnyKit[] = [
  mux,
  openai,
  sendgrid,
  mailchimpKit,
  asana,
  linode,
  twilio,
  hcloudKit,
  dockerKit,
];
