/**
 * The validation proxy's pages, as the mock serves them: the front door (`GET /` from a browser), the API
 * reference, the document as JSON and YAML, and an inspector of the judged traffic. Everything else is the
 * proxy's to forward or to answer.
 */
import type http from 'node:http';
import type { LoadedSpec } from '../spec/load';
import { matchPath } from '../spec/http/match';
import { maskUrl } from '../spec/redact';
import { readAsset } from '../spec/pages/assets';
import { loadSpecDocuments, type SpecDocuments } from '../spec/pages/documents';
import { docsPage, frontDoorPage, proxyInspectorPage, wantsFrontDoor } from '../spec/pages/pages';

/** An answer of the pages. */
export interface PageAnswer {
  status: number;
  type: string;
  body: Buffer | string;
  cache?: string;
}

const HTML = 'text/html; charset=utf-8';

/** A page server for `spec`, forwarding to `upstream`; `pageFor` answers undefined for what is not a page. */
export function createProxyPages(spec: LoadedSpec, upstream: URL) {
  let documents: Promise<SpecDocuments> | undefined;
  const docs = () => (documents ??= loadSpecDocuments(spec.file, spec.basePath));
  const title = spec.document.info?.title ?? 'API';
  const options = { inspector: true, title };
  const hasRoot = 'operation' in matchPath(spec, spec.basePath, 'GET', '/');

  const asset = async (name: string): Promise<PageAnswer | undefined> => {
    const found = await readAsset(name);
    return found && { status: 200, type: found.type, body: found.body, cache: 'public, max-age=3600' };
  };
  const document = async (type: string, pick: (d: SpecDocuments) => Buffer): Promise<PageAnswer> => ({
    status: 200,
    type,
    body: pick(await docs()),
  });

  /** The page at `pathname`, a promise of it when it is read from disk, or undefined (decided at once). */
  return function pageFor(
    req: http.IncomingMessage,
    pathname: string,
  ): PageAnswer | Promise<PageAnswer | undefined> | undefined {
    if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
    if (pathname.startsWith('/_mock/ui/')) return asset(pathname.slice('/_mock/ui/'.length));
    switch (pathname) {
      case '/_mock/docs':
        return { status: 200, type: HTML, body: docsPage(options) };
      case '/_mock/inspector':
        return { status: 200, type: HTML, body: proxyInspectorPage(options) };
      case '/_mock/docs/openapi.json':
        return document('application/json', (d) => d.docsJson);
      case '/openapi.json':
        return document('application/json', (d) => d.json);
      case '/openapi.yaml':
        return document('application/yaml; charset=utf-8', (d) => d.yaml);
    }
    if (hasRoot || !wantsFrontDoor(req.method, pathname, req.headers.accept)) return undefined;
    const host = req.headers.host;
    const origin = typeof host === 'string' && /^[\w.[\]:-]+$/.test(host) ? `http://${host}` : '';
    const page = frontDoorPage({
      ...options,
      version: typeof spec.document.info?.version === 'string' ? spec.document.info.version : undefined,
      baseUrl: `${origin}${spec.basePath}` || '/',
      basePath: spec.basePath,
      proxyOf: maskUrl(upstream.href),
    });
    return { status: 200, type: HTML, body: page };
  };
}
