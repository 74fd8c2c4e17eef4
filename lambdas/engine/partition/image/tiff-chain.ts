// The chain of a TIFF's page directories (IFDs), checked before utif2 reads it: utif2 follows each
// directory's next-offset with no loop or bounds check, so a hostile file whose last directory points
// back at an earlier one makes it read the same page forever (memory grows until the sandbox's
// budget stops the document). Like libtiff, the pages before the loop are read and the rest dropped
// with a warning.

/** At most this many directories are followed (a real scan has hundreds at most). */
export const MAX_TIFF_DIRECTORIES = 10_000;

/**
 * Ends the directory chain of `buf` (a private copy: it is edited in place) where it loops back, leaves
 * the file, or passes MAX_TIFF_DIRECTORIES, by writing 0 as that next-offset. Answers why it was cut,
 * or undefined for a sound chain. A file too short for a header is left to the decoder to refuse.
 */
export function cutTiffChain(buf: ArrayBuffer): string | undefined {
  const v = new DataView(buf);
  if (v.byteLength < 8) return undefined;
  const le = v.getUint8(0) === 0x49; // "II": little-endian
  const u16 = (o: number) => v.getUint16(o, le);
  const u32 = (o: number) => v.getUint32(o, le);
  const seen = new Set<number>();
  let pointerAt = 4; // where the offset of the next directory is stored
  for (;;) {
    const ifd = u32(pointerAt);
    if (ifd === 0) return undefined;
    const why =
      seen.has(ifd) ? `the TIFF's page directories loop back after page ${seen.size}`
      : ifd + 2 > v.byteLength || ifd + 2 + u16(ifd) * 12 + 4 > v.byteLength ? `the TIFF's page directory ${seen.size + 1} lies outside the file`
      : seen.size >= MAX_TIFF_DIRECTORIES ? `the TIFF has more than ${MAX_TIFF_DIRECTORIES} page directories`
      : undefined;
    if (why) {
      v.setUint32(pointerAt, 0, le);
      return `${why}; only the ${seen.size} page(s) before it were read`;
    }
    seen.add(ifd);
    pointerAt = ifd + 2 + u16(ifd) * 12;
  }
}
