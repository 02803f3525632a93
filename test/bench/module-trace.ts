// `node --import <this file>` with DOCPIPE_MODULE_TRACE=<dir>: records the packages a process
// resolves (one line per package, in `<dir>/<pid>.txt`), so the memory bench can say what each
// role loaded. Resolution hooks run on a separate thread; only the bench's trace phase uses them.
import { register } from 'node:module';

const dir = process.env.DOCPIPE_MODULE_TRACE;
if (dir) register('./module-trace-hooks.js', import.meta.url, { data: { dir } });
