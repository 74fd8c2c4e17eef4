// tesseract.js's own node worker script, started with its console routed to the service's JSON log.
//
// Tesseract (C++ compiled to WebAssembly) prints notes such as "Estimating resolution as 287" and
// "Detected 12 diacritics" through the Emscripten module's print/printErr, which default to this
// thread's console; Node copies a worker thread's console to the process's stdout/stderr as plain
// text, between the JSON lines. Here console is replaced before tesseract.js loads (its core binds
// console when the model loads), and each line is posted to the parent as a tesseract.js progress
// message with status "log": lambdas/engine/partition/ocr/tesseract.ts hands those to the logger
// with the job's context fields. Plain CommonJS, not TypeScript: tesseract.js starts this file
// itself with `new Worker(workerPath)`, without tsx; the Lambda bundle copies it beside the
// partition worker (lib/base-function.ts OCR_WORKER_FILE).
'use strict';
const { parentPort } = require('node:worker_threads');
const { format } = require('node:util');

const forward = (stream) => (...args) => {
  parentPort.postMessage({ status: 'progress', action: 'log', jobId: 'log', data: { status: 'log', stream, message: format(...args) } });
};
console.log = forward('stdout');
console.info = forward('stdout');
console.debug = forward('stdout');
console.warn = forward('stderr');
console.error = forward('stderr');

require('tesseract.js/src/worker-script/node/index.js');
