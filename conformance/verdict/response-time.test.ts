import type { Exchange } from '../types';
import { checkResponseTimes } from './response-time';

const exchange = (took: number): Exchange => ({
  request: { method: 'GET', url: '/v1/x', headers: {} },
  response: { status: 200, headers: {}, body: '' },
  sentAt: 1_000,
  receivedAt: 1_000 + took,
});

describe('response.max-time', () => {
  it('passes an answer within the bound and fails one beyond it, naming the request and the time', () => {
    const [fast, slow] = checkResponseTimes([exchange(80), exchange(120)], 100);
    expect(fast?.outcome).toBe('pass');
    expect(slow).toMatchObject({ outcome: 'fail', problem: 'GET /v1/x took 120 ms (over 100 ms)' });
  });
});
