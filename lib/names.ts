// Construct names, a leaf every construct module uses: one rule turns a definition's name into a stable
// logical id.

/** 'connection-checks' → 'ConnectionChecks' (stable logical ids). */
export const pascal = (s: string) => s.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());
