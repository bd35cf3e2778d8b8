/** A walker's one way to the target: the runner's client, each exchange kept as the walk's evidence. */
import type { Client, Outgoing, SendResult } from '../send/client';
import type { Exchange } from '../types';

/** Send one step through the runner's client (its one send path); the exchange joins the walk's `trail`. */
export async function sendStep(
  client: Pick<Client, 'send'>,
  trail: Exchange[],
  out: Outgoing,
): Promise<SendResult> {
  const result = await client.send(out);
  if (result.exchange) trail.push(result.exchange);
  return result;
}
