// Given to node with --import: every module the process resolves is appended, one URL a line,
// to the file named by O7_RECORD_IMPORTS, so a test can say which packages a command loaded.
import { register } from 'node:module';

register('./record-imports-hooks.mjs', import.meta.url, {
  data: { file: process.env.O7_RECORD_IMPORTS },
});
