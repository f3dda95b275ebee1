// Lints the page's JavaScript (static/) and the tests' (tests/) with ESLint
// under tests/js/eslint.config.mjs; exits 1 on any problem, which it prints.
// ESLint lives in tests/js/node_modules, installed by scripts/deps.
import { fileURLToPath } from 'node:url';

let ESLint;
try {
  ({ ESLint } = await import('eslint'));
} catch {
  console.error('ESLint is not installed: run scripts/deps (npm install in tests/js)');
  process.exit(1);
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: 'tests/js/eslint.config.mjs' });
const results = await eslint.lintFiles(['static', 'tests']);
const report = (await eslint.loadFormatter('stylish')).format(results);
if (report) console.log(report);
const files = results.length;
const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
console.log(`${files} files linted, ${problems} problem${problems === 1 ? '' : 's'}`);
process.exit(problems > 0 ? 1 : 0);
