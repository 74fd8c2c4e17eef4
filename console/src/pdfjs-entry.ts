// pdf.js as a module of its own (console/build.mjs builds it apart from the app): the playground
// imports it by URL when it draws a PDF page.
export * from 'pdfjs-dist';
