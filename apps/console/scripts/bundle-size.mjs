// The console's JavaScript budget (issue 20): every .js of the production build, gzipped, at most
// 300 KB in all. Prints each file and the total; exits 1 above the budget.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 300;
const assets = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'web', 'assets');
const files = readdirSync(assets).filter((name) => name.endsWith('.js'));
if (files.length === 0) {
  console.error(`bundle-size: no .js files in ${assets}; run vite build first`);
  process.exit(1);
}
let total = 0;
for (const name of files) {
  const gzipped = gzipSync(readFileSync(path.join(assets, name)), { level: 9 }).length;
  total += gzipped;
  console.log(`  ${name}: ${(gzipped / 1024).toFixed(1)} KB gzipped`);
}
const totalKb = total / 1024;
console.log(`bundle-size: ${totalKb.toFixed(1)} KB of JavaScript gzipped (budget ${BUDGET_KB} KB)`);
if (totalKb > BUDGET_KB) {
  console.error(`bundle-size: over the budget by ${(totalKb - BUDGET_KB).toFixed(1)} KB`);
  process.exit(1);
}
