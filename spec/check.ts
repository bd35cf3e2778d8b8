/** `npm run spec:check [FILE]`: validate the document as both tools load it and list its operations. */
import { loadSpec } from './load';

async function main(): Promise<number> {
  const result = await loadSpec(process.argv[2]);
  if (!result.ok) {
    console.error(result.error);
    return 2;
  }
  const { spec } = result;
  for (const warning of result.warnings) console.warn(`warning: ${warning}`);
  console.log(`${spec.file}: valid OpenAPI ${spec.document.openapi}, base path ${spec.basePath || '/'}`);
  for (const op of spec.operations) {
    const statuses = [...op.responses.keys()].join(', ');
    console.log(
      `  ${op.method.toUpperCase().padEnd(6)} ${op.path.padEnd(16)} ${op.operationId}${op.deprecated ? ' (deprecated)' : ''}: ${statuses}`,
    );
  }
  return 0;
}

main().then((code) => process.exit(code));
