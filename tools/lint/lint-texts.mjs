// Lints texts as if they were files of this repository, with its own ESLint
// configuration, in one process: a spec's way to ask what lint says of an
// import (Jest cannot load eslint.config.mjs itself: ESLint imports it
// dynamically, which Jest allows only with experimental VM modules).
// Reads [{ file, code }] as JSON on stdin, `file` relative to the repository;
// writes [{ file, rules, messages }], each message's rule and text.
import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let input = '';
for await (const chunk of process.stdin) input += chunk;
const eslint = new ESLint({ cwd: root });
const results = [];
for (const { file, code } of JSON.parse(input)) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  results.push({
    file,
    rules: result.messages.map((message) => message.ruleId ?? 'parse'),
    messages: result.messages.map((message) => message.message),
  });
}
process.stdout.write(JSON.stringify(results));
