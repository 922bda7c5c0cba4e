// Validate maester bundles against schemas/*.schema.json with Ajv (draft 2020-12, strict mode).
// Usage: node validate.mjs SCHEMA_DIR BUNDLE.json [BUNDLE.json ...]
// A second, independent validator keeps the schemas honest: they must not rely on one
// implementation's leniency. Exit 1 on any violation.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { strictAjv } from "./strict.mjs";

const [schemaDir, ...bundles] = process.argv.slice(2);
if (!schemaDir || bundles.length === 0) {
  console.error("usage: node validate.mjs SCHEMA_DIR BUNDLE.json [BUNDLE.json ...]");
  process.exit(2);
}
const ajv = strictAjv();
for (const file of readdirSync(schemaDir).filter((f) => f.endsWith(".schema.json"))) {
  ajv.addSchema(JSON.parse(readFileSync(join(schemaDir, file), "utf8")));
}
const main = JSON.parse(readFileSync(join(schemaDir, "bundle.schema.json"), "utf8"));
const validate = ajv.getSchema(main.$id);
let failed = 0;
for (const path of bundles) {
  const ok = validate(JSON.parse(readFileSync(path, "utf8")));
  if (ok) {
    console.log(`ajv: ${path} is valid (${main.$id})`);
  } else {
    failed += 1;
    for (const e of validate.errors.slice(0, 20)) console.error(`ajv: ${path}${e.instancePath}: ${e.message}`);
  }
}
process.exit(failed ? 1 : 0);
