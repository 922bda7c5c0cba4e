// The one Ajv set-up of maester's checks: draft 2020-12, strict mode in full (no union types, every keyword known,
// `required` names declared properties), and the x- annotation keywords declared with their meta-schemas.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";

const here = dirname(fileURLToPath(import.meta.url));
const { keywords } = JSON.parse(readFileSync(join(here, "keywords.json"), "utf8"));

export function strictAjv() {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: true });
  for (const [keyword, metaSchema] of Object.entries(keywords)) {
    const { description, ...schema } = metaSchema;
    ajv.addKeyword({ keyword, metaSchema: schema, schemaType: schema.type });
  }
  return ajv;
}
