// Validate game logs (`maester play --log`) against schemas/log.schema.json with the strict Ajv set-up.
// Usage: node validate_logs.mjs SCHEMA_DIR LOG.json [LOG.json ...]. Exit 1 on any violation.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { strictAjv } from "./strict.mjs";

const [schemaDir, ...logs] = process.argv.slice(2);
if (!schemaDir || logs.length === 0) {
  console.error("usage: node validate_logs.mjs SCHEMA_DIR LOG.json [LOG.json ...]");
  process.exit(2);
}
const ajv = strictAjv();
const schemas = readdirSync(schemaDir).filter((f) => f.endsWith(".schema.json"))
  .map((f) => JSON.parse(readFileSync(join(schemaDir, f), "utf8")));
for (const s of schemas) ajv.addSchema(s);
const log = schemas.find((s) => s.$id.endsWith("/log.schema.json"));
const validate = ajv.getSchema(log.$id);
let failed = 0;
for (const path of logs) {
  if (validate(JSON.parse(readFileSync(path, "utf8")))) {
    console.log(`ajv: ${path} is valid (${log.$id})`);
  } else {
    failed += 1;
    for (const e of validate.errors.slice(0, 10)) console.error(`ajv: ${path}${e.instancePath}: ${e.message}`);
  }
}
process.exit(failed ? 1 : 0);
