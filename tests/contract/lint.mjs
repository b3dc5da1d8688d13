// lint.mjs - Redocly's linter over the document the server serves, with the
// project's settings (openapi/redocly.yaml): fails on any error or warning,
// printing each (issue 24: the contract lints clean).
//
//   node tests/contract/lint.mjs build/test/gen/openapi.yaml
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const HERE = path.dirname(new URL(import.meta.url).pathname);
const ROOT = path.resolve(HERE, '../..');
const document = path.resolve(ROOT, process.argv[2] || 'build/test/gen/openapi.yaml');
const args = ['lint', '--config', path.join(ROOT, 'openapi/redocly.yaml'), '--format=json', document];
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

let out;
try {
  out = execFileSync(path.join(HERE, 'node_modules/.bin/redocly'), args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
} catch (e) {
  out = e.stdout; // redocly exits 1 when it finds an error; its report is still on stdout
}
const report = JSON.parse(out);
for (const p of report.problems) {
  const where = p.location?.[0]?.pointer ?? '';
  console.log(`${p.severity} ${p.ruleId}: ${p.message} ${where}`);
}
const { errors, warnings } = report.totals;
console.log(`lint: ${errors} errors, ${warnings} warnings (Redocly ${report.version})`);
process.exit(errors + warnings === 0 ? 0 : 1);
