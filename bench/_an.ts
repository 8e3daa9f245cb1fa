import { readFileSync } from 'node:fs';
import { estimateTokens, estimateToolTokens } from '../protocol/token-estimate';
const raw = JSON.parse(readFileSync('/tmp/econ/raw.json','utf8')) as Record<string, Array<{name:string;description?:string;inputSchema:Record<string,unknown>}>>;
let rawT=0, model=0, noSchema=0, noProps=0;
for (const [s, tools] of Object.entries(raw)) for (const t of tools) {
  rawT += estimateTokens(JSON.stringify(t));
  const name = `${s}__${t.name}`;
  model += estimateToolTokens({name, description: t.description ?? '', inputSchema: t.inputSchema});
  const { $schema, ...rest } = t.inputSchema;
  noSchema += estimateToolTokens({name, description: t.description ?? '', inputSchema: rest});
  const r2: Record<string, unknown> = { ...rest };
  if (JSON.stringify(r2.properties) === '{}') delete r2.properties;
  noProps += estimateToolTokens({name, description: t.description ?? '', inputSchema: r2});
}
console.log({rawT, model, noSchema, noProps, r1: model/rawT, r2: noSchema/rawT, r3: noProps/rawT});
