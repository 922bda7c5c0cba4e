// Compile every schemas/*.schema.json with Ajv in strict mode, then validate a folder of conformance vectors
// (each vector against vector.schema.json, index.json against its $defs/index).
// Usage: node validate_formats.mjs SCHEMA_DIR VECTOR_DIR. Exit 1 on any violation or a folder with no vector.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { strictAjv } from "./strict.mjs";

const [schemaDir, vectorDir] = process.argv.slice(2);
if (!schemaDir || !vectorDir) {
  console.error("usage: node validate_formats.mjs SCHEMA_DIR VECTOR_DIR");
  process.exit(2);
}
const ajv = strictAjv();
const schemas = readdirSync(schemaDir).filter((f) => f.endsWith(".schema.json"))
  .map((f) => JSON.parse(readFileSync(join(schemaDir, f), "utf8")));
for (const s of schemas) ajv.addSchema(s);
for (const s of schemas) ajv.getSchema(s.$id); // compiles it: a schema strict mode refuses throws here
const vector = schemas.find((s) => s.$id.endsWith("/vector.schema.json"));
const checks = { vector: ajv.getSchema(vector.$id), index: ajv.getSchema(`${vector.$id}#/$defs/index`) };
let failed = 0;
let count = 0;
for (const file of readdirSync(vectorDir).filter((f) => f.endsWith(".json") && f !== "bundle.json")) {
  const validate = file === "index.json" ? checks.index : checks.vector;
  count += 1;
  if (!validate(JSON.parse(readFileSync(join(vectorDir, file), "utf8")))) {
    failed += 1;
    for (const e of validate.errors.slice(0, 5)) console.error(`ajv: ${file}${e.instancePath}: ${e.message}`);
  }
}
if (count < 2) {
  console.error(`ajv: ${vectorDir} holds no conformance vector`);
  process.exit(1);
}
console.log(`ajv: ${schemas.length} schemas compile strictly; ${count - failed} of ${count} files of ${vectorDir} valid`);
process.exit(failed ? 1 : 0);
