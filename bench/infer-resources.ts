/**
 * What the engine infers from documents (`npm run infer -- FILE…`, or no argument: a dozen of APIs.guru's
 * collection): one line per resource, as `npm start` prints it. To compare inference before and after a change.
 */
import path from 'node:path';
import { loadSpec } from '../spec/load';
import { describeResources, inferResources } from '../spec/resources';
import { collection } from './sweep';

const DIR = process.env.DIRECTORY ?? collection().dir;

const DOZEN = [
  'linode.com.json',
  'asana.com.json',
  'box.com.json',
  'twilio.com/api.json',
  'digitalocean.com.json',
  'docker.com/engine.json',
  'hetzner.cloud.json',
  'openai.com.json',
  'docker.com/hub.json',
  'mailchimp.com.json',
  'xero.com/xero_accounting.json',
  'netbox.dev.json',
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const files = args.length ? args : DOZEN.map((d) => path.join(DIR, d));
  for (const file of files) {
    const loaded = await loadSpec(file);
    console.log(`## ${path.basename(path.dirname(file))}/${path.basename(file)}`);
    if (!loaded.ok) {
      console.log(`  cannot load: ${loaded.error.slice(0, 200)}`);
      continue;
    }
    const inferred = inferResources(loaded.spec);
    if (!inferred.ok) console.log(`  ${inferred.error}`);
    else for (const line of describeResources(inferred.model)) console.log(`  ${line}`);
  }
}

void main();
