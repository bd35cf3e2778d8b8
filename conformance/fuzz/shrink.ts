/**
 * A failing body -> the smallest body that still fails: fewer properties, shorter strings, numbers nearer 0,
 * tried in a fixed order (the same failure shrinks to the same case), within a budget of attempts (each is a
 * request to the server).
 */
type Json = Record<string, unknown>;

/** Smaller variants of one value: shorter strings, numbers nearer 0, shorter arrays. */
function smaller(value: unknown): unknown[] {
  if (typeof value === 'string' && value.length > 1)
    return [value.slice(0, Math.ceil(value.length / 2)), value.slice(0, value.length - 1)];
  if (typeof value === 'number' && value !== 0 && Number.isFinite(value)) {
    const half = Number.isInteger(value) ? Math.trunc(value / 2) : Math.round(value / 2);
    return half === value ? [] : [half];
  }
  if (Array.isArray(value) && value.length > 1) return [value.slice(0, Math.ceil(value.length / 2))];
  return [];
}

/** Every body one step smaller than `body`: a property left out, or one property's value made smaller. */
export function oneStepSmaller(body: Json): Json[] {
  const out: Json[] = [];
  for (const name of Object.keys(body)) {
    const without = { ...body };
    delete without[name];
    out.push(without);
  }
  for (const [name, value] of Object.entries(body))
    for (const less of smaller(value)) out.push({ ...body, [name]: less });
  return out;
}

/** Shrink `body` while `stillFails` says so; at most `budget` calls of it. */
export async function shrink(
  body: Json,
  stillFails: (candidate: Json) => Promise<boolean>,
  budget = 40,
): Promise<{ body: Json; attempts: number }> {
  let current = body;
  let attempts = 0;
  for (let progress = true; progress && attempts < budget;) {
    progress = false;
    for (const candidate of oneStepSmaller(current)) {
      if (attempts >= budget) break;
      attempts += 1;
      if (await stillFails(candidate)) {
        current = candidate;
        progress = true;
        break;
      }
    }
  }
  return { body: current, attempts };
}
