// Parts every shape writes: the API page and the test file's frame. Each shape gives its endpoints and test cases.

export function docsPage(n, shape) {
  const rows = shape.endpoints.map((e) => `| \`${e.method} ${e.path}\` | ${e.who} | ${e.what} |`);
  return `# ${n.Name}

[← API walkthroughs](README.md)

The \`${n.name}\` module (tag \`${n.tag}\`, ${n.shape} shape; see [adding a module](../adding-a-module.md)). ${shape.summary}

| Endpoint | Who | What |
|---|---|---|
${rows.join('\n')}

Errors carry the codes of \`functions/src/modules/${n.name}/${n.name}.errors.ts\` where the module has its own; the
[OpenAPI document](../../openapi/openapi.json) lists each operation's codes.
`;
}

export function testFile(n, shape) {
  return `${shape.testImports}
import { requireEmulators } from '../../helpers/emulators';

// The ${n.name} module through the API (in-process, on the emulators): ${shape.testSummary}
beforeAll(requireEmulators);

${shape.testBody}
`;
}
