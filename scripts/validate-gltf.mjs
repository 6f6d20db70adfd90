// Validates .glb/.gltf files with the Khronos glTF validator (npm package gltf-validator) and prints one JSON
// line per file: {"file", "errors", "warnings", "infos", "messages": [first issues]}. Exit code 1 when any file
// has errors. Usage: node scripts/validate-gltf.mjs FILE... (NODE_PATH or a local node_modules must provide
// gltf-validator; scripts/install-gltf-validator.sh installs it into tools/node_modules).
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';

const require = createRequire(import.meta.url);
let validator;
for (const base of [process.env.GLTF_VALIDATOR_DIR, path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'tools')]) {
  if (!base) continue;
  try { validator = require(path.join(base, 'node_modules', 'gltf-validator')); break; } catch (e) { /* next */ }
}
if (!validator) {
  console.error('gltf-validator is not installed (run scripts/install-gltf-validator.sh)');
  process.exit(2);
}
let failed = false;
for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const report = await validator.validateBytes(bytes, { maxIssues: 50 });
  const issues = report.issues;
  const messages = issues.messages.map(m => `${['error', 'warning', 'info', 'hint'][m.severity] || m.severity} ${m.code} ${m.pointer || ''}: ${m.message}`);
  console.log(JSON.stringify({ file, errors: issues.numErrors, warnings: issues.numWarnings, infos: issues.numInfos, messages }));
  if (issues.numErrors > 0) failed = true;
}
process.exit(failed ? 1 : 0);
