import path from 'node:path';
import { loadSpecOrThrow, type OperationSpec } from '../../spec/load';
import { bodyRequest } from './requests';

it('names the files of each multipart body apart, so that no two requests write one file', async () => {
  const spec = await loadSpecOrThrow(
    path.join(__dirname, '..', '..', 'fixtures', 'specs', 'params-forms-31.yaml'),
  );
  const upload = spec.byId.get('upload') as OperationSpec;
  const names = [1, 2].map(
    () =>
      /filename="([^"]+)"/.exec(bodyRequest(upload, '/upload', { json: {}, label: 'run-x' }).body ?? '')?.[1],
  );
  expect(names[0]).toMatch(/^run-x-\d+-file-1\.txt$/);
  expect(names[1]).not.toBe(names[0]);
});
