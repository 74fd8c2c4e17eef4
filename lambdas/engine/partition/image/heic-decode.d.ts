// Types for heic-decode (libheif-js wasm; ships no typings).
declare module 'heic-decode' {
  interface DecodedImage { width: number; height: number; data: Uint8ClampedArray | Uint8Array }
  function decode(input: { buffer: ArrayBuffer | Uint8Array }): Promise<DecodedImage>;
  export default decode;
}

// Types for pngjs's synchronous reader (the package ships no typings).
declare module 'pngjs' {
  export const PNG: { sync: { read(buffer: Buffer, options?: { skipRescale?: boolean }): { width: number; height: number; data: Buffer } } };
}
